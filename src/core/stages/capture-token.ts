import type { Plugin } from '../../pipeline/plugin.js';
import { extractToken } from '../token-extraction.js';

/**
 * Token auto-extraction on the `capture` hook: the top-level `token`, `accessToken` or
 * `access_token` of a 2xx JSON response becomes the session's `{{token}}` (off with
 * `--no-extract`; when it applies is in builtins.ts).
 */
export const captureTokenPlugin: Plugin = {
  name: 'capture-token',
  stages: {
    capture: (ctx) => {
      extractToken(ctx.capturedBody(), ctx.session);
    },
  },
};
