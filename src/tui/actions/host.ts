import type { Layer, OverlayHost } from '../views/overlay.js';
import type { Level } from '../panes/status-bar.js';
import type { OAuthLogin } from '../oauth-login.js';
import type { Workspace } from '../workspace.js';
import type { RequestSpec } from '../../core/model.js';

export interface AppHooks {
  /** Loads the OAuth plugin's login for `o` (imported on first use). */
  oauthLogin?: () => Promise<OAuthLogin | undefined>;
  /** Opens the authorization URL; default: the system browser (tests simulate one). */
  openBrowser?: (url: string) => Promise<void>;
}

/** What the actions (profiles, OAuth, …) may use of the app. */
export interface AppHost extends OverlayHost {
  readonly workspace: Workspace;
  readonly hooks: AppHooks;
  /** A line in the status bar. */
  say(text: string, level?: Level): void;
  open(layer: Layer): void;
  isOpen(layer: Layer): boolean;
  /** Runs beside the key loop; what it throws ends up in the status bar. */
  background(action: Promise<void>): void;
  /** Copies text to the terminal's clipboard (OSC 52). */
  copy(text: string, what: string): void;
  /** The profile or session changed: recompute the previews and redraw everything. */
  refresh(): void;
  /** The login waiting for the browser, if any (Esc or quitting aborts it). */
  oauthCancel: AbortController | undefined;
}

/** What `L` (actions/stress.ts, stress/run-tui-stress.ts) uses of the app. */
export interface StressHost extends AppHost {
  selectedSpec(): RequestSpec | undefined;
  selectedFile(): string | undefined;
  /** The stress run going on, if any (Esc or quitting stops it). */
  stressCancel: AbortController | undefined;
  /** True once the UI is closing. */
  readonly gone: boolean;
}
