import { SecretRegistry } from '../../../core/mask.js';
import { startCallbackServer } from '../callback-server.js';
import { toOAuthError } from '../errors.js';
import { clientSecretForms, parseRedirectUrl } from '../settings.js';
import type { GrantFlow } from './flow.js';

/**
 * Authorization code flow (RFC 6749 §4.1) through the user's browser: PKCE with S256 on every
 * login (RFC 7636; for confidential clients too, as RFC 9700 asks: it is what stops an attacker's
 * code from being accepted), plus the client secret for confidential clients; a random `state`
 * checked on return.
 */
export const authorizationCodeFlow: GrantFlow = {
  grant: 'authorization_code',
  endpoints: ['authorization', 'token'],
  async perform(ctx) {
    const { client } = ctx;
    const { lib, config, settings } = client;
    const redirectUrl = parseRedirectUrl(settings);
    const state = lib.randomState();
    // The verifier stays in this closure: it is never printed or stored.
    const verifier = lib.randomPKCECodeVerifier();
    const onStray = (): void => ctx.warn('a callback that does not belong to this login (wrong or missing state) was refused; still waiting for yours');
    const server = await startCallbackServer({ redirectUrl, state, timeoutMs: ctx.timeoutMs, profile: settings.profile, onStray, ...(ctx.retry ? { retry: ctx.retry } : {}), ...(ctx.signal ? { signal: ctx.signal } : {}) });
    try {
      const parameters: Record<string, string> = { redirect_uri: server.redirectUri, state };
      if (settings.scope) parameters.scope = settings.scope;
      parameters.code_challenge = await lib.calculatePKCECodeChallenge(verifier);
      parameters.code_challenge_method = 'S256';
      const url = lib.buildAuthorizationUrl(config, parameters).href;
      ctx.report({ type: 'authorization-url', url, redirectUri: server.redirectUri, timeoutMs: ctx.timeoutMs, openingBrowser: ctx.openBrowser !== undefined });
      // Not awaited: the browser's page waits for the token exchange below.
      void ctx.openBrowser?.(url).catch((error: unknown) => ctx.warn(`could not open a browser (${error instanceof Error ? error.message : String(error)}); open the URL above yourself`));
      const callback = await server.result;
      // RFC 9207 `iss` can only be checked against a configured issuer (see client.ts).
      if (!client.verifiesIssuer) callback.searchParams.delete('iss');
      ctx.report({ type: 'callback-received', tokenUrl: client.site('token').url });
      try {
        const tokens = await lib.authorizationCodeGrant(config, callback, { expectedState: state, pkceCodeVerifier: verifier });
        server.done({ ok: true });
        return tokens;
      } catch (error) {
        const problem = toOAuthError(error, client.site('token'));
        // The browser's page says why, without the code, the verifier or the client secret.
        const secrets = new SecretRegistry();
        for (const value of [...clientSecretForms(settings), callback.searchParams.get('code') ?? undefined, verifier]) secrets.add(value);
        server.done({ ok: false, reason: secrets.scrub(problem.message) });
        throw problem;
      }
    } finally {
      await server.close();
    }
  },
};
