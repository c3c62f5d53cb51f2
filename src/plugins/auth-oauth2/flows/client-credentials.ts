import { toOAuthError } from '../errors.js';
import type { GrantFlow } from './flow.js';

/** Client credentials grant (RFC 6749 §4.4): no user, no browser; the client's secret buys the token. */
export const clientCredentialsFlow: GrantFlow = {
  grant: 'client_credentials',
  endpoints: ['token'],
  async perform({ client }) {
    const { lib, config, settings } = client;
    try {
      return await lib.clientCredentialsGrant(config, settings.scope ? { scope: settings.scope } : {});
    } catch (error) {
      throw toOAuthError(error, client.site('token'));
    }
  },
};
