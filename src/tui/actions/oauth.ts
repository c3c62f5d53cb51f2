import { updateFromForm, type OAuthForm } from '../oauth-fields.js';
import { saveOAuthSettings } from '../profiles-writer.js';
import { colors, errorText } from '../views/format.js';
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
      await saveOAuthSettings(path, profile.name, updateFromForm(form));
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
  if (typeof profile.oauth.clientSecret === 'string') workspace.secrets.add(profile.oauth.clientSecret);
  const grant = profile.oauth.grant ?? 'authorization_code';
  let copyable = '';
  const warnings: string[] = [];
  let lines = [grant === 'client_credentials' ? 'Fetching a token with the client credentials…' : 'Starting the authorization flow…'];
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
      ...(app.hooks.openBrowser ? { openBrowser: app.hooks.openBrowser } : {}),
      warn: (message) => {
        warnings.push(message);
        show(lines);
      },
      onPrompt: (prompt) => {
        if (prompt.type === 'url') {
          copyable = prompt.url;
          return show(['Grant access in the browser; this window closes by itself when you are done.', 'If no browser opened, open this URL (y copies it):', '', prompt.url]);
        }
        copyable = prompt.verificationUriComplete ?? prompt.verificationUri;
        show([`Open ${prompt.verificationUri} in a browser and enter the code:`, '', `    ${colors.bold(prompt.userCode)}`, '', ...(prompt.verificationUriComplete ? [`(or open ${prompt.verificationUriComplete})`] : [])]);
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
      if (app.isOpen(overlay)) overlay.finish([errorText(problem, (t) => workspace.secrets.scrub(t))]);
      app.say(problem.message, 'error');
    }
  } finally {
    app.oauthCancel = undefined;
    app.refresh();
  }
}
