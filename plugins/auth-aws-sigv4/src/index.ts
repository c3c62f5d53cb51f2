/** For hosts that embed the plugin and for tests that check signatures. */
export { createSigV4Plugin, DEFAULTS } from './plugin.js';
export { parseAmzDate, parseQuery, sigV4Headers, type AwsCredentials, type SignableRequest, type SigningScope } from './sign.js';
