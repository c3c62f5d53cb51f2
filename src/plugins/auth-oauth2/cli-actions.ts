/** The bodies of `reqflow oauth login|status|logout`: what they do and print. */
import { ExitCode } from '../../core/errors/index.js';
import type { OAuthCommandContext } from './command.js';
import type { FlowEvent } from './flows/index.js';
import { loadSettings, runGrant } from './login.js';
import { formatStatus, logout, oauthStatus } from './status.js';
import { TOKEN_VARIABLE, describeExpiry, formatDuration } from './token-store.js';

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
  ctx.err(`To log in to profile "${name}", open ${event.verificationUri} in a browser and enter the code:`);
  ctx.err(`  ${event.userCode}`);
  if (event.verificationUriComplete) ctx.err(`(or open ${event.verificationUriComplete})`);
  ctx.err(`Waiting for approval (the code expires in ${formatDuration(event.expiresInSeconds * 1000)}; Ctrl-C to cancel)...`);
}

export async function loginAction(ctx: OAuthCommandContext, flags: LoginFlags): Promise<number> {
  const settings = await loadSettings({ profile: ctx.profile, session: ctx.session, expand: ctx.expand, env: ctx.env });
  ctx.secrets.add(settings.clientSecret);
  const grant = flags.device ? 'device_code' : settings.grant;
  const result = await runGrant(settings, grant, {
    session: ctx.session,
    openBrowser: flags.browser && grant === 'authorization_code' ? undefined : false,
    onEvent: (event) => showEvent(ctx, event),
    signal: ctx.signal,
    timeoutMs: flags.waitMs,
    env: ctx.env,
    warn: ctx.warn,
  });
  const { stored } = result;
  const parts = [describeExpiry(stored), stored.refreshToken ? 'refresh token stored' : 'no refresh token', stored.scope ? `scopes: ${stored.scope}` : undefined].filter(Boolean);
  ctx.out(`Logged in to profile "${result.profile}" (${grant}): ${parts.join(', ')}.\n`);
  ctx.err(`Requests of this profile can now send: Authorization: Bearer {{${TOKEN_VARIABLE}}}`);
  return ExitCode.ok;
}

export async function statusAction(ctx: OAuthCommandContext, flags: { showToken: boolean; json: boolean }): Promise<number> {
  const status = oauthStatus(ctx.profile.name, ctx.session, { showToken: flags.showToken });
  ctx.out(flags.json ? `${JSON.stringify(status, null, 2)}\n` : formatStatus(status));
  if (status.usable) return ExitCode.ok;
  // Scripts can test `reqflow oauth status >/dev/null || reqflow oauth login`.
  const name = ctx.profile.name;
  ctx.err(status.token === undefined ? `reqflow: profile "${name}" has no OAuth token` : `reqflow: the OAuth token of profile "${name}" has expired and cannot be refreshed`);
  ctx.err(`hint: reqflow oauth login -p ${name}`);
  return ExitCode.auth;
}

export async function logoutAction(ctx: OAuthCommandContext): Promise<number> {
  const removed = await logout(ctx.session);
  ctx.out(removed ? `Logged out of profile "${ctx.profile.name}": removed its access and refresh tokens from the session.\n` : `Profile "${ctx.profile.name}" had no OAuth tokens.\n`);
  return ExitCode.ok;
}
