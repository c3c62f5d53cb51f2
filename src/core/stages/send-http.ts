import type { Plugin } from '../../pipeline/plugin.js';

/** The default sender (runs last among senders): one HTTP request, response headers in, body left as a stream. */
export const sendHttpPlugin: Plugin = {
  name: 'core-http',
  stages: {
    send: async (ctx) => {
      ctx.response = await ctx.http.send({
        method: ctx.spec.method,
        url: ctx.spec.url,
        headers: ctx.spec.headers,
        ...(ctx.spec.body !== undefined ? { body: ctx.spec.body } : {}),
      });
      return ctx;
    },
  },
};
