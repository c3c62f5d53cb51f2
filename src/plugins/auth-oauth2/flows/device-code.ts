import { AuthFlowError } from '../../../core/errors/index.js';
import { toOAuthError } from '../errors.js';
import { formatDuration } from '../token-store.js';
import type { GrantFlow } from './flow.js';

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
    ctx.report({
      type: 'device-code',
      verificationUri: started.verification_uri,
      ...(started.verification_uri_complete ? { verificationUriComplete: started.verification_uri_complete } : {}),
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
