import { codePointName } from '../../../core/code-point.js';
import { AuthFlowError } from '../../../core/errors/index.js';
import { toOAuthError, type OAuthCallSite } from '../errors.js';
import { formatDuration } from '../token-store.js';
import type { GrantFlow } from './flow.js';

/** What a URI may hold (RFC 3986: printable ASCII, no space): a control or a line break is no address to show or open. */
const NOT_IN_URI = /[^\x21-\x7e]/;

/**
 * A verification URI the user is told to open (and the TUI copies): a web page, or the device
 * response is refused (exit 6) — `javascript:…` or one carrying terminal controls is never offered.
 */
function checkVerificationUri(field: 'verification_uri' | 'verification_uri_complete', value: string, site: OAuthCallSite): string {
  const refuse = (why: string): AuthFlowError => new AuthFlowError(`the ${site.what}'s ${field} ${why}: not a device authorization response`, { hint: `check ${site.field}` });
  const bad = NOT_IN_URI.exec(value)?.[0];
  if (bad !== undefined) throw refuse(`holds ${codePointName(bad)}, which a web address cannot`);
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if ((scheme !== 'https' && scheme !== 'http') || !URL.canParse(value)) throw refuse(`is not an http:// or https:// address${scheme ? ` (${scheme}:)` : ''}`);
  return value;
}

/**
 * Device authorization grant (RFC 8628) for machines without a browser: show a URL and a code,
 * then poll the token endpoint. openid-client honours `interval`, `slow_down` (+5 s) and
 * `authorization_pending`.
 */
export const deviceCodeFlow: GrantFlow = {
  grant: 'device_code',
  endpoints: ['device', 'token'],
  async perform(ctx) {
    const { client } = ctx;
    const { lib, config, settings } = client;
    let started;
    try {
      started = await lib.initiateDeviceAuthorization(config, settings.scope ? { scope: settings.scope } : {});
    } catch (error) {
      throw toOAuthError(error, client.site('device'));
    }
    const site = client.site('device');
    ctx.report({
      type: 'device-code',
      verificationUri: checkVerificationUri('verification_uri', started.verification_uri, site),
      ...(started.verification_uri_complete ? { verificationUriComplete: checkVerificationUri('verification_uri_complete', started.verification_uri_complete, site) } : {}),
      userCode: started.user_code,
      expiresInSeconds: started.expires_in,
    });
    const waitMs = Math.min(ctx.timeoutMs, started.expires_in * 1000);
    const timeout = AbortSignal.timeout(waitMs);
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
    try {
      return await lib.pollDeviceAuthorizationGrant(config, started, undefined, { signal });
    } catch (error) {
      if (ctx.signal?.aborted) throw new AuthFlowError('login cancelled');
      if (timeout.aborted) {
        throw new AuthFlowError(`timed out after ${formatDuration(waitMs)} waiting for the code ${started.user_code} to be approved`, {
          hint: ctx.retry ? `${ctx.retry} to try again` : `run reqflow oauth login -p ${settings.profile} --device again`,
        });
      }
      throw toOAuthError(error, client.site('token'));
    }
  },
};
