import { updateFromForm, type OAuthForm } from '../oauth-fields.js';
import { saveOAuthSettings } from '../profiles-writer.js';
import { formatDuration } from '../../plugins/auth-oauth2/token-store.js';
import { clientSecretForms } from '../../plugins/auth-oauth2/settings.js';
import type { OAuthLogin } from '../oauth-login.js';
import { colors } from '../views/format.js';
import { visibleLine } from '../../report/render/visible.js';
import type { ReqflowError } from '../../core/errors/index.js';
import { OAuthFormOverlay } from '../views/oauth-form.js';
import { WaitOverlay } from '../views/overlay.js';
import { asReqflowError } from '../workspace.js';
import type { AppHost } from './host.js';

/** `O`: edit the profile's OAuth settings; saved into .profiles.json, the rest of the file kept as it is. */
export function openOAuthSettings(app: AppHost): void {
  const path = app.workspace.profilesFileForSaving();
  const profile = app.workspace.profile;
  app.open(
    new OAuthFormOverlay(app, { profile: profile.name, path, existing: profile.oauth }, async (form: OAuthForm) => {
      await saveOAuthSettings(path, profile.name, updateFromForm(form, profile.oauth));
      await app.workspace.reloadProfiles(profile.name);
      app.say(`OAuth settings of ${profile.name} saved into ${path}`, 'ok');
      app.refresh();
    }),
  );
}

/** `o`: log in with the profile's OAuth settings (browser, device code or client credentials), cancellable with Esc. */
export async function runOAuthLogin(app: AppHost): Promise<void> {
  const { workspace } = app;
  const profile = workspace.profile;
  if (!profile.oauth) return app.say(`profile ${profile.name} has no oauth settings: press O to add them`, 'warn');
  if (app.oauthCancel) return app.say('a login is already waiting', 'warn');
  const login = await app.hooks.oauthLogin?.();
  if (!login) return app.say('OAuth login is not available in this build', 'error');
  const controller = new AbortController();
  app.oauthCancel = controller;
  const { clientId, clientSecret } = profile.oauth;
  if (typeof clientSecret === 'string') for (const secret of clientSecretForms({ clientId: typeof clientId === 'string' ? clientId : '', clientSecret })) workspace.secrets.add(secret);
  const grant = profile.oauth.grant ?? 'authorization_code';
  let copyable = '';
  const warnings: string[] = [];
  const tokenUrl = typeof profile.oauth.tokenUrl === 'string' ? profile.oauth.tokenUrl : 'the token endpoint (from discovery)';
  let lines = [`Grant: ${grant}`, '', grant === 'client_credentials' ? `Fetching a token from ${tokenUrl} with the client credentials…` : 'Starting the authorization flow…'];
  const overlay = new WaitOverlay(app, `OAuth login · ${profile.name}`, lines, {
    onCancel: () => controller.abort(),
    copy: () => (copyable ? app.copy(copyable, 'URL') : undefined),
  });
  const show = (next: string[]): void => {
    lines = next;
    overlay.update([...lines, ...warnings.map((w) => colors.warn(`warning: ${w}`))]);
  };
  app.open(overlay);
  try {
    await login({
      profile,
      session: await workspace.loadSession(),
      signal: controller.signal,
      env: workspace.config.env,
      retry: 'press o',
      ...(app.hooks.openBrowser ? { openBrowser: app.hooks.openBrowser } : {}),
      warn: (message) => {
        warnings.push(message);
        show(lines);
      },
      onPrompt: (prompt) => {
        if (prompt.type === 'url') copyable = prompt.url;
        else if (prompt.type === 'device-code') copyable = prompt.verificationUriComplete ?? prompt.verificationUri;
        show([`Grant: ${grant}`, '', ...promptLines(prompt)]);
      },
    });
    await workspace.refreshSession();
    if (app.isOpen(overlay)) overlay.dismiss();
    app.say(`logged in: token stored in the session as {{token}}, ${workspace.tokenState()}`, 'ok');
  } catch (error) {
    if (controller.signal.aborted) {
      if (app.isOpen(overlay)) overlay.dismiss();
      app.say('OAuth login cancelled', 'warn');
    } else {
      const problem = asReqflowError(error);
      if (app.isOpen(overlay)) overlay.finish([...failureLines(problem, (t) => workspace.secrets.scrub(t))]);
      app.say(problem.message, 'error');
    }
  } finally {
    app.oauthCancel = undefined;
    app.refresh();
  }
}

type LoginPrompt = Parameters<Parameters<OAuthLogin>[0]['onPrompt']>[0];

/** What the login window says while it waits: where the callback listens, what is awaited, for how long. */
function promptLines(prompt: LoginPrompt): string[] {
  if (prompt.type === 'url') {
    return [
      'Grant access in the browser; this window closes by itself when you are done.',
      'If no browser opened, open this URL (y copies it):',
      '',
      prompt.url,
      '',
      colors.dim(`Waiting up to ${formatDuration(prompt.timeoutMs)} for the browser to bring the authorization code back to ${prompt.redirectUri} (reqflow listens there, on this machine only).`),
    ];
  }
  if (prompt.type === 'exchanging') return ['The browser came back with the authorization code.', `Exchanging it for a token at ${prompt.tokenUrl}…`];
  return [
    `Open ${visibleLine(prompt.verificationUri)} in a browser and enter the code:`,
    '',
    `    ${colors.bold(visibleLine(prompt.userCode))}`,
    '',
    ...(prompt.verificationUriComplete ? [`(or open ${visibleLine(prompt.verificationUriComplete)}; y copies it)`, ''] : []),
    colors.dim(`Waiting for the approval; the code expires in ${formatDuration(prompt.expiresInSeconds * 1000)}.`),
  ];
}

/** A failed login: the error and its hint, then the keys that go on from here (never a command to type). */
function failureLines(problem: ReqflowError, scrub: (text: string) => string): string[] {
  const hint = problem.hint ? [`${colors.dim('hint:')} ${visibleLine(scrub(problem.hint))}`] : [];
  return [colors.error(`✗ ${visibleLine(scrub(problem.message))}`), ...hint, '', colors.dim('after Esc: o tries again · O edits the OAuth settings')];
}
