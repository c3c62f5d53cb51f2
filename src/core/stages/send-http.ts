import { hasHeader } from '../headers.js';
import type { Plugin } from '../pipeline.js';
import { VERSION } from '../version.js';

/** The default sender: one HTTP request, response headers in, body left as a stream. */
export const sendHttpPlugin: Plugin = {
  name: 'core-http',
  stages: {
    send: async (ctx) => {
      const headers = { ...ctx.spec.headers };
      if (!hasHeader(headers, 'user-agent')) headers['User-Agent'] = `reqflow/${VERSION}`;
      if (!hasHeader(headers, 'accept')) headers.Accept = '*/*';
      ctx.response = await ctx.http.send({
        method: ctx.spec.method,
        url: ctx.spec.url,
        headers,
        ...(ctx.spec.body !== undefined ? { body: ctx.spec.body } : {}),
      });
      return ctx;
    },
  },
};
