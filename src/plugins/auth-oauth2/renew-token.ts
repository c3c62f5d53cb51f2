import { AuthFlowError, ExitCode, ReqflowError, isReqflowError } from '../../core/errors/index.js';
import type { RequestContext } from '../../pipeline/context.js';
import { proxyRules, type ProxyRules } from '../../core/http/proxy.js';
import { withOAuthClient } from './client.js';
import { refreshTokens } from './flows/index.js';
import { runGrant } from './login.js';
import { clientSecretForms, readOAuthSettings, type OAuthSettings } from './settings.js';
import { OAUTH_SESSION_KEY, TOKEN_VARIABLE, authorityOf, describeExpiry, issuedElsewhere, expiresSoon, msUntilExpiry, storeTokens, storedOAuth, type StoredOAuth } from './token-store.js';
import { FileSession } from '../../core/session.js';
import { withFileLock } from '../../core/file-lock.js';

function loginHint(profile: string): string {
  return `log in again: reqflow oauth login -p ${profile}`;
}

/** The run's proxy rules (`--proxy`, the profile's, the environment's), for the token endpoint too. */
function proxyOf(ctx: RequestContext): ProxyRules {
  return proxyRules(ctx.options, process.env, { add: (value) => value !== undefined && ctx.addSecret?.(value) }, ctx.profile);
}

function note(ctx: RequestContext, message: string): void {
  if (ctx.options.verbose) ctx.output.err(`reqflow: oauth: ${message}`);
}

/** The token is missing or expires soon (see ensure-token.ts): fetch, refresh, or say how to log in. */
export async function renewToken(ctx: RequestContext, stored: StoredOAuth | undefined, token: string | undefined): Promise<void> {
  const { session, profile } = ctx;
  const settings = await readOAuthSettings(profile, (text) => ctx.variables.expand(text));
  // A token endpoint may echo what it was sent (an error quoting the refresh token or the client secret).
  for (const secret of [...clientSecretForms(settings), stored?.refreshToken]) if (secret !== undefined) ctx.addSecret?.(secret);
  if (settings.grant === 'client_credentials') {
    const result = await runGrant(settings, 'client_credentials', { session, signal: ctx.signal, requestTimeoutMs: ctx.options.timeoutMs, openBrowser: false, proxy: proxyOf(ctx) });
    note(ctx, `fetched a client credentials token for profile "${profile.name}" (${describeExpiry(result.stored)})`);
    return;
  }
  if (stored?.refreshToken) {
    const issuer = issuedElsewhere(stored, authorityOf(settings));
    if (issuer !== undefined) {
      throw new AuthFlowError(`the OAuth tokens of profile "${profile.name}" were issued by ${issuer}, and the profile names ${settings.tokenUrl ?? settings.issuer ?? 'another server'} now: their refresh token is not sent there`, { hint: loginHint(profile.name) });
    }
    try {
      await refreshOnce(ctx, settings, stored, stored.refreshToken);
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

/**
 * A refresh that runs at once with others of the same session (runs in parallel, `test --jobs`)
 * takes its turn: the first refreshes and saves; the others then find its token in the file and
 * use it. A server that rotates refresh tokens refuses the old one a second time (and may revoke
 * the grant for its reuse), so the same refresh token must never go twice.
 */
async function refreshOnce(ctx: RequestContext, settings: OAuthSettings, stored: StoredOAuth, refreshToken: string): Promise<void> {
  const session = ctx.session;
  if (!(session instanceof FileSession) || session.savedNow() === undefined) return refresh(ctx, settings, stored, refreshToken);
  const mine = session.get(TOKEN_VARIABLE);
  try {
    // Waited for as long as another run's refresh may take (it is bounded by its own time-out); never refreshed unlocked.
    await withFileLock(
      `${session.path}.oauth`,
      async () => {
        const onDisk = session.savedNow();
        const theirs = storedOAuth(onDisk?.data[OAUTH_SESSION_KEY]);
        const theirToken = onDisk?.variables[TOKEN_VARIABLE];
        if (theirs !== undefined && theirToken !== undefined && theirToken !== mine && !expiresSoon(theirs)) {
          session.set(TOKEN_VARIABLE, theirToken);
          session.setData(OAUTH_SESSION_KEY, theirs);
          for (const secret of [theirToken, theirs.refreshToken]) if (secret !== undefined) ctx.addSecret?.(secret);
          note(ctx, `another run refreshed the access token of profile "${ctx.profile.name}" (${describeExpiry(theirs)})`);
          return;
        }
        await refresh(ctx, settings, stored, refreshToken);
      },
      ctx.options.timeoutMs * 2 + 5_000,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    throw new AuthFlowError(`another reqflow is still refreshing the OAuth token of profile "${ctx.profile.name}"`, { hint: 'run it again in a moment' });
  }
}

async function refresh(ctx: RequestContext, settings: OAuthSettings, stored: StoredOAuth, refreshToken: string): Promise<void> {
  const name = ctx.profile.name;
  let response;
  try {
    response = await withOAuthClient(settings, { needs: ['token'], timeoutMs: ctx.options.timeoutMs, signal: ctx.signal, env: process.env, proxy: proxyOf(ctx) }, (client) => refreshTokens(client, refreshToken));
  } catch (error) {
    if (!isReqflowError(error) || error.exitCode === ExitCode.usage) throw error;
    // Keep the cause's exit code (4 unreachable, 5 TLS, 6 rejected) and say what was being done.
    throw new ReqflowError(`cannot refresh the OAuth token of profile "${name}": ${error.message}`, { exitCode: error.exitCode, hint: error.exitCode === ExitCode.auth ? loginHint(name) : error.hint ?? loginHint(name), cause: error });
  }
  const updated = storeTokens(ctx.session, response, { grant: stored.grant, clientId: stored.clientId, authority: authorityOf(settings) }, stored);
  for (const secret of [response.access_token, updated.refreshToken]) if (secret !== undefined) ctx.addSecret?.(secret);
  // Saved now: a rotated refresh token must not be lost if the request itself fails.
  await ctx.session.save();
  note(ctx, `refreshed the access token of profile "${name}" (${describeExpiry(updated)})`);
}
