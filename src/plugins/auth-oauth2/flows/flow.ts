import type { OAuthClient } from '../client.js';
import type { Endpoint, GrantName } from '../settings.js';
import type { TokenResponse } from '../token-store.js';

/** What the user must see or do while a flow runs. The CLI prints it; the TUI shows it in a dialog. */
export type FlowEvent =
  /** Authorization code flow: the URL to open (always reported, whether or not a browser was opened). */
  | { type: 'authorization-url'; url: string; redirectUri: string; timeoutMs: number; openingBrowser: boolean }
  /** Authorization code flow: the browser came back with a code; it is being exchanged for a token at `tokenUrl`. */
  | { type: 'callback-received'; tokenUrl: string }
  /** Device flow: where to go and which code to enter. */
  | { type: 'device-code'; verificationUri: string; verificationUriComplete?: string; userCode: string; expiresInSeconds: number };

interface FlowContext {
  client: OAuthClient;
  /** Cancels the flow (Ctrl-C, Esc in the TUI). */
  signal?: AbortSignal;
  /** How long to wait for the user (browser callback, device approval). */
  timeoutMs: number;
  /** Opens a URL in the user's browser; absent: only report it. */
  openBrowser?: (url: string) => Promise<void>;
  report(event: FlowEvent): void;
  warn(message: string): void;
  /** How the user tries again, for hints (the TUI: `press o`); default: the `reqflow oauth login` command. */
  retry?: string;
}

/**
 * One OAuth grant (cf. httpyac's flow strategies): which endpoints it needs and how it turns the
 * profile's client into tokens.
 */
export interface GrantFlow {
  readonly grant: GrantName;
  /** Checked before any request: a missing one is exit 2 naming the profile field. */
  readonly endpoints: readonly Endpoint[];
  perform(ctx: FlowContext): Promise<TokenResponse>;
}
