import type { Plugin } from '../../pipeline/plugin.js';
import { CAPTURE_LIMIT, extractToken, tokenTooLarge } from '../token-extraction.js';

/**
 * Token auto-extraction on the `capture` hook: the top-level `token`, `accessToken` or
 * `access_token` of a 2xx JSON response becomes the session's `{{token}}` (off with
 * `--no-extract`; when it applies is in builtins.ts).
 */
export const captureTokenPlugin: Plugin = {
  name: 'capture-token',
  stages: {
    capture: (ctx) => {
      const body = ctx.capturedBody();
      // Over the limit in every output mode alike (a chained request captures more, a token no more).
      // The token taken is a secret from now on: the same response may quote it elsewhere (a note, its URL), the history included.
      if (body !== undefined && body.length <= CAPTURE_LIMIT && extractToken(body, ctx.session) !== undefined) ctx.addSecret?.(ctx.session.get('token') ?? '');
      else if (tokenTooLarge(ctx.response)) ctx.warn(`the response is over ${CAPTURE_LIMIT / 1024 / 1024} MiB: its token was not stored in the session`);
    },
  },
};
