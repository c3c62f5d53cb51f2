import { setTimeout as wait } from 'node:timers/promises';
import type { Plugin } from '../../pipeline/plugin.js';

/**
 * httpyac's `# @sleep 500`: the request waits that many milliseconds before it goes out (its
 * `sleep` execute hook, before the request's own), on each pass of a `# @loop`. The value was
 * checked as the file was read (format-http); a dry run sends nothing, so it does not wait.
 */
export const sleepPlugin: Plugin = {
  name: 'sleep',
  stages: {
    transform: async (ctx) => {
      if (ctx.options.dryRun) return;
      // Aborted (Ctrl-C, the TUI's cancel): the send after it sees the same signal and says so.
      await wait(Number(ctx.spec.annotations.sleep), undefined, { signal: ctx.signal }).catch(() => undefined);
    },
  },
};
