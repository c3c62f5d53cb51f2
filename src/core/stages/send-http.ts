import type { Plugin } from '../../pipeline/plugin.js';
import { mayBeCoded } from '../http/response-body.js';

/** The default sender (runs last among senders): one HTTP request, response headers in, body left as a stream. */
export const sendHttpPlugin: Plugin = {
  name: 'core-http',
  stages: {
    send: (ctx) => {
      const { method, url, headers } = ctx.spec;
      const body = ctx.spec.bodyFile?.stillBodyOf(ctx.spec) ?? ctx.spec.body; // a large file is sent as it is read
      return ctx.http.send(body !== undefined ? { method, url, headers, body } : { method, url, headers }).then((response) => {
        ctx.response = response;
        if (!mayBeCoded(response.headers)) return undefined;
        // A coding reqflow cannot undo (zstd, compress): the body is shown as received, and said to be.
        return import('../http/content-coding.js').then(({ undecodedCoding }) => {
          const coding = undecodedCoding(response.headers);
          if (coding !== undefined) ctx.warn(`the body is in a content coding reqflow does not undo (${JSON.stringify(coding.slice(0, 40))}): shown as received (-o raw writes its bytes)`);
        });
      });
    },
  },
};
