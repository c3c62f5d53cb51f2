import type { Plugin } from '../../pipeline/plugin.js';

/** The session file is written after every request (atomically, 0600), when anything changed; also after a failure. */
export const persistSessionPlugin: Plugin = {
  name: 'persist-session',
  stages: {
    persist: async (ctx) => {
      await ctx.session.save();
    },
  },
};
