import type { RequestContext } from '../../pipeline/context.js';
import { TOKEN_VARIABLE, expiresSoon, readStored } from './token-store.js';

/**
 * Before `{{token}}` is substituted: make sure the session holds a usable access token. A token
 * that expires within 30 s is refreshed (refresh token) or, for `client_credentials`, fetched
 * again; a missing one is fetched for `client_credentials`, else the user is sent to
 * `reqflow oauth login`. `-e token=...` always wins and is left alone.
 *
 * This runs before every request that uses `{{token}}`: the common case (a valid token) only
 * reads the session, and the renewal code (settings, flows, openid-client) is loaded only when
 * a token must be fetched or refreshed.
 */
export async function ensureFreshToken(ctx: RequestContext): Promise<void> {
  if (ctx.variables.sourceOf(TOKEN_VARIABLE) === 'cli') return;
  const stored = readStored(ctx.session);
  const token = ctx.session.get(TOKEN_VARIABLE);
  if (token !== undefined && !expiresSoon(stored)) return;
  const { renewToken } = await import('./renew-token.js');
  await renewToken(ctx, stored, token);
}
