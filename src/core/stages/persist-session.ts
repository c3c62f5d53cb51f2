import type { Plugin } from '../../pipeline/plugin.js';

/** The session file is written after every request (atomically, 0600), when anything changed; also after a failure. */
export const persistSessionPlugin: Plugin = {
  name: 'persist-session',
  stages: {
    // Most requests change nothing: no promise for them (a batch pays for each, per request).
    persist: (ctx) => (ctx.session.changed?.() === false ? undefined : ctx.session.save()),
  },
};
