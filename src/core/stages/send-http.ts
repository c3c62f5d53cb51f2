import type { Plugin } from '../../pipeline/plugin.js';

/** The default sender (runs last among senders): one HTTP request, response headers in, body left as a stream. */
export const sendHttpPlugin: Plugin = {
  name: 'core-http',
  stages: {
    send: (ctx) => {
      const { method, url, headers, body } = ctx.spec;
      return ctx.http.send(body !== undefined ? { method, url, headers, body } : { method, url, headers }).then((response) => {
        ctx.response = response;
      });
    },
  },
};
