import type { Profile, Session } from '../core/model.js';

/** What the user must see while a login waits: the URL to open, or a device code to enter. */
type LoginPrompt = { type: 'url'; url: string } | { type: 'device-code'; verificationUri: string; verificationUriComplete?: string; userCode: string };

/** What the UI asks of the OAuth plugin for `o`: the profile's login flow (the browser flow by default). */
interface OAuthLoginRequest {
  profile: Profile;
  /** The profile's session: the flow stores the tokens in it and saves it. */
  session: Session;
  /** Fires when the user presses Esc. */
  signal: AbortSignal;
  env: NodeJS.ProcessEnv;
  /** What to show while waiting for the user. */
  onPrompt(prompt: LoginPrompt): void;
  /** Opens the authorization URL; default: the system browser. */
  openBrowser?: (url: string) => Promise<void>;
  warn(message: string): void;
}

export type OAuthLogin = (request: OAuthLoginRequest) => Promise<void>;

/**
 * The OAuth plugin's login (authorization code in the browser, or the profile's `grant`:
 * device code, client credentials), imported only when the user presses `o`.
 */
export async function loadOAuthLogin(): Promise<OAuthLogin> {
  const { login } = await import('../plugins/auth-oauth2/login.js');
  return async (request) => {
    await login({
      profile: request.profile,
      session: request.session,
      signal: request.signal,
      env: request.env,
      warn: request.warn,
      ...(request.openBrowser ? { openBrowser: request.openBrowser } : {}),
      onEvent: (event) =>
        request.onPrompt(
          event.type === 'authorization-url'
            ? { type: 'url', url: event.url }
            : { type: 'device-code', verificationUri: event.verificationUri, userCode: event.userCode, ...(event.verificationUriComplete ? { verificationUriComplete: event.verificationUriComplete } : {}) },
        ),
    });
  };
}
