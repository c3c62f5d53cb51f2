import type { OAuthClient } from '../client.js';
import { toOAuthError } from '../errors.js';

/**
 * Token revocation (RFC 7009): the refresh token first (servers revoke the access tokens issued
 * from it too), then the access token. Not a login flow of its own; `oauth logout` uses it.
 */
export async function revokeTokens(client: OAuthClient, tokens: { accessToken?: string; refreshToken?: string }): Promise<void> {
  const revoke = async (token: string, hint: 'refresh_token' | 'access_token'): Promise<void> => {
    try {
      await client.lib.tokenRevocation(client.config, token, { token_type_hint: hint });
    } catch (error) {
      throw toOAuthError(error, client.site('revocation'));
    }
  };
  if (tokens.refreshToken) await revoke(tokens.refreshToken, 'refresh_token');
  if (tokens.accessToken) await revoke(tokens.accessToken, 'access_token');
}
