/** The bodies of `reqflow oauth login|status|logout`: what they do and print. */
import { visible, visibleJson, visibleLine } from '../../report/render/visible.js';
import { ExitCode } from '../../core/errors/index.js';
import type { OAuthCommandContext } from './command.js';
import type { FlowEvent } from './flows/index.js';
import { withOAuthClient } from './client.js';
import { revokeTokens } from './flows/index.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, loadSettings, runGrant } from './login.js';
import { formatStatus, logout, oauthStatus } from './status.js';
import { clientSecretForms } from './settings.js';
import { TOKEN_VARIABLE, authorityOf, describeExpiry, formatDuration, issuedElsewhere, readStored } from './token-store.js';

export interface LoginFlags {
  browser: boolean;
  device: boolean;
  waitMs: number;
}

function showEvent(ctx: OAuthCommandContext, event: FlowEvent): void {
  const name = ctx.profile.name;
  if (event.type === 'authorization-url') {
    ctx.err(event.openingBrowser ? `Opening your browser to log in to profile "${name}". If it does not open, visit:` : `Open this URL in a browser to log in to profile "${name}":`);
    ctx.err(`  ${event.url}`);
    ctx.err(`Waiting up to ${formatDuration(event.timeoutMs)} for the browser to return to ${event.redirectUri} (Ctrl-C to cancel)...`);
    return;
  }
  if (event.type === 'callback-received') return; // the next line is the outcome
  // The server's texts: the code is any text it likes (controls made visible, one line); the URIs are checked (device-code.ts).
  ctx.err(`To log in to profile "${name}", open ${visibleLine(event.verificationUri)} in a browser and enter the code:`);
  ctx.err(`  ${visibleLine(event.userCode)}`);
  if (event.verificationUriComplete) ctx.err(`(or open ${visibleLine(event.verificationUriComplete)})`);
  ctx.err(`Waiting for approval (the code expires in ${formatDuration(event.expiresInSeconds * 1000)}; Ctrl-C to cancel)...`);
}

export async function loginAction(ctx: OAuthCommandContext, flags: LoginFlags): Promise<number> {
  const settings = await loadSettings({ profile: ctx.profile, session: ctx.session, expand: ctx.expand, env: ctx.env });
  for (const secret of clientSecretForms(settings)) ctx.secrets.add(secret);
  const grant = flags.device ? 'device_code' : settings.grant;
  const result = await runGrant(settings, grant, {
    session: ctx.session,
    openBrowser: flags.browser && grant === 'authorization_code' ? undefined : false,
    onEvent: (event) => showEvent(ctx, event),
    signal: ctx.signal,
    timeoutMs: flags.waitMs,
    env: ctx.env,
    warn: ctx.warn,
    proxy: ctx.proxy,
  });
  const { stored } = result;
  const parts = [describeExpiry(stored), stored.refreshToken ? 'refresh token stored' : 'no refresh token', stored.scope ? `scopes: ${visible(stored.scope)}` : undefined].filter(Boolean);
  ctx.out(`Logged in to profile "${result.profile}" (${grant}): ${parts.join(', ')}.\n`);
  ctx.err(`Requests of this profile can now send: Authorization: Bearer {{${TOKEN_VARIABLE}}}`);
  return ExitCode.ok;
}

export async function statusAction(ctx: OAuthCommandContext, flags: { showToken: boolean; json: boolean }): Promise<number> {
  const status = oauthStatus(ctx.profile.name, ctx.session, { showToken: flags.showToken });
  ctx.out(flags.json ? `${visibleJson(JSON.stringify(status, null, 2))}\n` : formatStatus(status));
  if (status.usable) return ExitCode.ok;
  // Scripts can test `reqflow oauth status >/dev/null || reqflow oauth login`.
  const name = ctx.profile.name;
  ctx.err(status.token === undefined ? `reqflow: profile "${name}" has no OAuth token` : `reqflow: the OAuth token of profile "${name}" has expired and cannot be refreshed`);
  ctx.err(`hint: reqflow oauth login -p ${name}`);
  return ExitCode.auth;
}

export async function logoutAction(ctx: OAuthCommandContext, flags: { revoke: boolean }): Promise<number> {
  const name = ctx.profile.name;
  const accessToken = ctx.session.get(TOKEN_VARIABLE);
  const refreshToken = readStored(ctx.session)?.refreshToken;
  const revoked = flags.revoke && (accessToken !== undefined || refreshToken !== undefined) ? await revokeAtServer(ctx, { ...(accessToken ? { accessToken } : {}), ...(refreshToken ? { refreshToken } : {}) }) : false;
  // Removed locally whatever the server said: logging out must always work offline.
  const removed = await logout(ctx.session);
  if (!removed) ctx.out(`Profile "${name}" had no OAuth tokens.\n`);
  else if (revoked) ctx.out(`Logged out of profile "${name}": revoked its tokens at the authorization server and removed them from the session.\n`);
  else ctx.out(`Logged out of profile "${name}": removed its access and refresh tokens from the session.\n`);
  return ExitCode.ok;
}

/**
 * Revokes the tokens at the server (RFC 7009) when it has a revocation endpoint (the profile's
 * `oauth.revocationUrl`, else discovery). Never fails the logout: a problem is one warning.
 */
async function revokeAtServer(ctx: OAuthCommandContext, tokens: { accessToken?: string; refreshToken?: string }): Promise<boolean> {
  const name = ctx.profile.name;
  try {
    const settings = await loadSettings({ profile: ctx.profile, session: ctx.session, expand: ctx.expand, env: ctx.env });
    for (const secret of clientSecretForms(settings)) ctx.secrets.add(secret);
    const stored = readStored(ctx.session);
    const issuer = stored && issuedElsewhere(stored, authorityOf(settings));
    if (issuer !== undefined) {
      ctx.warn(`the tokens of profile "${name}" were issued by ${issuer}, not by the server the profile names now: not sent there to be revoked; they are removed from this machine only`);
      return false;
    }
    if (!settings.revocationUrl && !settings.issuer) {
      ctx.err(`note: profile "${name}" names no revocation endpoint (oauth.revocationUrl, or oauth.issuer for discovery): its tokens stay valid at the server until they expire`);
      return false;
    }
    const connect = { needs: [], uses: ['revocation' as const], timeoutMs: DEFAULT_REQUEST_TIMEOUT_MS, signal: ctx.signal, env: ctx.env, proxy: ctx.proxy };
    const revoked = await withOAuthClient(settings, connect, async (client) => {
      if (!client.endpoints.revocation) return false;
      await revokeTokens(client, tokens);
      return true;
    });
    if (!revoked) ctx.err(`note: the authorization server of profile "${name}" announces no revocation endpoint: its tokens stay valid there until they expire`);
    return revoked;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    ctx.warn(`the tokens of profile "${name}" were not revoked at the server (${error instanceof Error ? error.message : String(error)}); they are removed from this machine only`);
    return false;
  }
}
