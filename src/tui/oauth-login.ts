import type { Profile, Session } from '../core/model.js';

/**
 * What the user must see while a login waits: the URL to open and where the callback server
 * listens, that the browser came back and the code is being exchanged, or a device code to enter.
 */
type LoginPrompt =
  | { type: 'url'; url: string; redirectUri: string; timeoutMs: number }
  | { type: 'exchanging'; tokenUrl: string }
  | { type: 'device-code'; verificationUri: string; verificationUriComplete?: string; userCode: string; expiresInSeconds: number };

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
  /** How the user tries again, for the hints of errors (`press o`). */
  retry: string;
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
      retry: request.retry,
      ...(request.openBrowser ? { openBrowser: request.openBrowser } : {}),
      onEvent: (event) =>
        request.onPrompt(
          event.type === 'authorization-url'
            ? { type: 'url', url: event.url, redirectUri: event.redirectUri, timeoutMs: event.timeoutMs }
            : event.type === 'callback-received'
              ? { type: 'exchanging', tokenUrl: event.tokenUrl }
              : { type: 'device-code', verificationUri: event.verificationUri, userCode: event.userCode, expiresInSeconds: event.expiresInSeconds, ...(event.verificationUriComplete ? { verificationUriComplete: event.verificationUriComplete } : {}) },
        ),
    });
  };
}
