import type { OAuthClient } from '../client.js';
import { toOAuthError } from '../errors.js';
import type { TokenResponse } from '../token-store.js';

/** Refresh token grant (RFC 6749 §6): a new access token without the user. Not a login flow of its own. */
export async function refreshTokens(client: OAuthClient, refreshToken: string): Promise<TokenResponse> {
  try {
    return await client.lib.refreshTokenGrant(client.config, refreshToken);
  } catch (error) {
    throw toOAuthError(error, client.site('token', { refreshing: true }));
  }
}
