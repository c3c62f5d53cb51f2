import { AuthFlowError, ExitCode, ReqflowError, isReqflowError } from '../../core/errors/index.js';
import type { RequestContext } from '../../core/pipeline.js';
import { withOAuthClient } from './client.js';
import { refreshTokens } from './flows/index.js';
import { runGrant } from './login.js';
import { readOAuthSettings, type OAuthSettings } from './settings.js';
import { TOKEN_VARIABLE, describeExpiry, expiresSoon, msUntilExpiry, readStored, storeTokens, type StoredOAuth } from './token-store.js';

function loginHint(profile: string): string {
  return `log in again: reqflow oauth login -p ${profile}`;
}

function note(ctx: RequestContext, message: string): void {
  if (ctx.options.verbose) ctx.output.err(`reqflow: oauth: ${message}`);
}

/**
 * Before `{{token}}` is substituted: make sure the session holds a usable access token. A token
 * that expires within 30 s is refreshed (refresh token) or, for `client_credentials`, fetched
 * again; a missing one is fetched for `client_credentials`, else the user is sent to
 * `reqflow oauth login`. `-e token=...` always wins and is left alone.
 */
export async function ensureFreshToken(ctx: RequestContext): Promise<void> {
  if (ctx.variables.sourceOf(TOKEN_VARIABLE) === 'cli') return;
  const { session, profile } = ctx;
  const stored = readStored(session);
  const token = session.get(TOKEN_VARIABLE);
  if (token !== undefined && !expiresSoon(stored)) return;

  const settings = await readOAuthSettings(profile, (text) => ctx.variables.expand(text));
  const io = { timeoutMs: ctx.options.timeoutMs, signal: ctx.signal, env: process.env };
  if (settings.grant === 'client_credentials') {
    const result = await runGrant(settings, 'client_credentials', { session, signal: ctx.signal, requestTimeoutMs: ctx.options.timeoutMs, openBrowser: false });
    note(ctx, `fetched a client credentials token for profile "${profile.name}" (${describeExpiry(result.stored)})`);
    return;
  }
  if (stored?.refreshToken) {
    try {
      await refresh(ctx, settings, stored, stored.refreshToken, io);
      return;
    } catch (error) {
      const left = msUntilExpiry(stored);
      // A token that is still valid for a few seconds is better than no request at all.
      if (token !== undefined && left !== undefined && left > 0 && isReqflowError(error) && error.exitCode !== ExitCode.usage) {
        ctx.warn(`could not refresh the OAuth token of profile "${profile.name}" (${error.message}); using the current one, which ${describeExpiry(stored)}`);
        return;
      }
      throw error;
    }
  }
  if (token === undefined) {
    if (ctx.variables.has(TOKEN_VARIABLE)) return; // the profile defines `token` itself
    throw new AuthFlowError(`profile "${profile.name}" has no OAuth token yet`, { hint: `log in first: reqflow oauth login -p ${profile.name}` });
  }
  const left = msUntilExpiry(stored);
  if (left !== undefined && left <= 0) {
    throw new AuthFlowError(`the OAuth token of profile "${profile.name}" ${describeExpiry(stored)} and there is no refresh token`, { hint: loginHint(profile.name) });
  }
}

async function refresh(ctx: RequestContext, settings: OAuthSettings, stored: StoredOAuth, refreshToken: string, io: { timeoutMs: number; signal: AbortSignal; env: NodeJS.ProcessEnv }): Promise<void> {
  const name = ctx.profile.name;
  let response;
  try {
    response = await withOAuthClient(settings, { needs: ['token'], ...io }, (client) => refreshTokens(client, refreshToken));
  } catch (error) {
    if (!isReqflowError(error) || error.exitCode === ExitCode.usage) throw error;
    // Keep the cause's exit code (4 unreachable, 5 TLS, 6 rejected) and say what was being done.
    throw new ReqflowError(`cannot refresh the OAuth token of profile "${name}": ${error.message}`, { exitCode: error.exitCode, hint: error.exitCode === ExitCode.auth ? loginHint(name) : error.hint ?? loginHint(name), cause: error });
  }
  const updated = storeTokens(ctx.session, response, { grant: stored.grant, clientId: stored.clientId }, stored);
  // Saved now: a rotated refresh token must not be lost if the request itself fails.
  await ctx.session.save();
  note(ctx, `refreshed the access token of profile "${name}" (${describeExpiry(updated)})`);
}
