import type { Plugin } from '../../pipeline/plugin.js';
import { UsageError } from '../errors/index.js';

/**
 * `# @note [text]` (httpyac): the request is sent only after the user confirms it, asked once
 * everything is resolved and before anything goes out. Without a terminal there is no one to
 * ask, so it is not sent.
 */
export const confirmNotePlugin: Plugin = {
  name: 'confirm-note',
  stages: {
    transform: async (ctx) => {
      if (ctx.options.dryRun) return; // nothing will be sent: nothing to confirm
      const note = ctx.spec.annotations.note ?? 'true'; // restcli: # @confirmation true
      const what = `request "${ctx.spec.name}" (${ctx.spec.source.file}:${ctx.spec.source.line}) asks for confirmation before it is sent${note === 'true' ? '' : `: ${note}`}`;
      if (!ctx.options.interactive || !ctx.confirm) throw new UsageError(`${what}; not sent`, { hint: 'run it on a terminal to confirm it, or remove its # @note line' });
      if (!(await ctx.confirm(`${what}. Send it? (y/N)`))) throw new UsageError(`request "${ctx.spec.name}" was not sent: not confirmed`);
    },
  },
};
