/**
 * OAuth 2.0 for reqflow: `reqflow oauth login|status|logout` and, before each request that uses
 * `{{token}}` (or `# @auth oauth2`), a fresh access token from the profile's session.
 *
 * This module is what a request loads: the login code (flows, callback server, openid-client) is
 * imported only when a token must be fetched or refreshed, never for a request whose token is
 * still valid. The commands and the TUI import login.ts and status.ts directly.
 */
import { setHeader, hasHeader } from '../../core/headers.js';
import type { Plugin } from '../../pipeline/plugin.js';
import { requestedAuth } from '../../core/registry.js';
import { ensureFreshToken } from './ensure-token.js';
import { TOKEN_VARIABLE } from './token-store.js';


const plugin: Plugin = {
  name: 'auth-oauth2',
  stages: {
    // Runs before core-substitute (builtins.ts): `{{token}}` must see the renewed token.
    substitute: async (ctx) => {
      await ensureFreshToken(ctx);
      return ctx;
    },
    // `# @auth oauth2` (or profile auth.type "oauth2"): send the token without writing the header.
    auth: async (ctx) => {
      if (requestedAuth(ctx) !== 'oauth2' || hasHeader(ctx.spec.headers, 'Authorization')) return ctx;
      setHeader(ctx.spec.headers, 'Authorization', `Bearer ${await ctx.variables.get(TOKEN_VARIABLE)}`);
      return ctx;
    },
  },
};

export default plugin;
