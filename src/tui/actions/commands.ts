import type { Bindings, Action } from '../keymap.js';
import { helpLines } from '../keymap.js';
import type { RequestState } from '../request-states.js';
import { TextOverlay } from '../views/overlay.js';
import { PaletteOverlay } from '../views/palette-overlay.js';
import type { RequestSpec } from '../../core/model.js';
import { editRequest, type EditHost } from './edit-request.js';
import { FILE_COMMANDS, type FilesHost } from './request-files.js';
import { RESPONSE_COMMANDS, type ResponseHost } from './response-keys.js';
import { pickEnvironment } from './environments.js';
import { openOAuthSettings, runOAuthLogin } from './oauth.js';
import { pickProfile } from './profiles.js';
import { openVariables } from './variables.js';
import type { StressHost } from './host.js';
import { openStress } from './stress.js';

/** What the commands below use of the app. */
export interface CommandHost extends ResponseHost, FilesHost, EditHost, StressHost {
  readonly bindings: Bindings;
  /** The selected request's own state (a folder or file row has none). */
  selectedState(): RequestState;
  /** The folder of the selected row's file (the environments searched from there), else the folder shown. */
  selectedFolder(): string;
  /** The selected request (none for a file or folder row). */
  selectedSpec(): RequestSpec | undefined;
  /** Does what a key bound to `action` does (the palette runs actions this way). */
  perform(action: Action): void;
}

/**
 * The actions that open a window or call an action module: the same whether a key or the
 * command palette runs them. The app handles the others (moving, focus, sending).
 */
export const COMMANDS: Partial<Record<Action, (app: CommandHost) => void>> = {
  'pick-profile': (app) => app.background(pickProfile(app)),
  'pick-environment': (app) => app.background(pickEnvironment(app, app.selectedFolder())),
  variables: (app) => app.background(openVariables(app)),
  'oauth-settings': (app) => openOAuthSettings(app),
  'oauth-login': (app) => app.background(runOAuthLogin(app)),
  help: (app) => app.open(new TextOverlay(app, 'Keys', helpLines(app.bindings))),
  palette: (app) => app.open(new PaletteOverlay(app, app.bindings, (action) => app.perform(action))),
  edit: (app) => editRequest(app, app.selectedSpec()),
  stress: (app) => openStress(app),
  reload: (app) => app.background(app.reload(true)),
  ...RESPONSE_COMMANDS,
  ...FILE_COMMANDS,
};
