import type { GrantName } from '../settings.js';
import { authorizationCodeFlow } from './authorization-code.js';
import { clientCredentialsFlow } from './client-credentials.js';
import { deviceCodeFlow } from './device-code.js';
import type { GrantFlow } from './flow.js';

export type { FlowEvent, GrantFlow } from './flow.js';
export { refreshTokens } from './refresh-token.js';
export { revokeTokens } from './revoke.js';

/** The login flows, by the grant name a profile's `oauth.grant` uses. */
export const FLOWS: Record<GrantName, GrantFlow> = {
  authorization_code: authorizationCodeFlow,
  device_code: deviceCodeFlow,
  client_credentials: clientCredentialsFlow,
};
