import { wrap } from './views/format.js';

/** What a key does on the main screen (overlays and the filter line handle their own keys). */
export type Action =
  | 'down'
  | 'up'
  | 'page-down'
  | 'page-up'
  | 'first'
  | 'last'
  | 'activate'
  | 'focus-next'
  | 'focus-previous'
  | 'filter'
  | 'palette'
  | 'pick-profile'
  | 'pick-environment'
  | 'variables'
  | 'toggle-headers'
  | 'toggle-fullscreen'
  | 'copy-body'
  | 'copy-curl'
  | 'save-body'
  | 'toggle-hex'
  | 'timing'
  | 'search-next'
  | 'search-previous'
  | 'query'
  | 'history'
  | 'pin'
  | 'diff'
  | 'edit'
  | 'stress'
  | 'new-file'
  | 'duplicate-file'
  | 'rename-file'
  | 'delete-file'
  | 'escape'
  | 'oauth-settings'
  | 'oauth-login'
  | 'reload'
  | 'help'
  | 'quit';

export interface ActionInfo {
  /** Default keys, by neo-blessed's `key.full` name (`j`, `S-tab`, `C-p`, `pagedown`). */
  keys: readonly string[];
  /** What it does, for `?`, the command palette and docs/tui.md. */
  what: string;
}

/**
 * Every action of the main screen with its default keys: the single source of the key map,
 * the `?` help, the command palette (`:`) and the key bindings file (keybinds.ts).
 */
export const ACTIONS: Readonly<Record<Action, ActionInfo>> = {
  down: { keys: ['down', 'j'], what: 'move down in the request tree; scroll the request or response pane' },
  up: { keys: ['up', 'k'], what: 'move up; scroll up' },
  'page-down': { keys: ['pagedown'], what: 'page down' },
  'page-up': { keys: ['pageup'], what: 'page up' },
  first: { keys: ['g', 'home'], what: 'first row / top' },
  last: { keys: ['G', 'end'], what: 'last row / bottom' },
  activate: { keys: ['enter'], what: 'send the selected request (others may be running); on a file or folder: fold or unfold it' },
  'focus-next': { keys: ['tab'], what: 'move the focus: requests → request → response' },
  'focus-previous': { keys: ['S-tab'], what: 'move the focus back' },
  filter: { keys: ['/'], what: 'filter requests by name, file path, URL or method (starts empty; Enter keeps it, Esc clears it); with the response focused: search the response' },
  'search-next': { keys: ['n'], what: 'next match of the response search (match i/N in the status bar)' },
  'search-previous': { keys: ['N'], what: 'previous match of the response search' },
  palette: { keys: [':', 'C-p'], what: 'the command palette: every action with its key; type to filter, Enter runs' },
  'pick-profile': { keys: ['p'], what: 'pick the profile' },
  'pick-environment': { keys: ['e'], what: 'pick the environment (http-client.env.json, VS Code settings, httpyac .env) of the selected file' },
  variables: { keys: ['v'], what: 'the variable editor: edit, add and remove the profile\'s variables, choose and name a multi-value variable\'s options (values from -e, the session and env files shown too)' },
  'toggle-headers': { keys: ['h'], what: 'show or hide the response headers' },
  'toggle-fullscreen': { keys: ['f'], what: 'full-screen response (scroll with the arrows); f again or Esc returns' },
  query: { keys: ['J'], what: 'filter the JSON response live: JMESPath, or JSONPath from $ (Enter keeps the view, Esc shows the whole body)' },
  'copy-body': { keys: ['y'], what: 'copy the response body to the clipboard (OSC 52)' },
  'copy-curl': { keys: ['C'], what: 'copy the request as sent as a curl command (OSC 52), secrets masked' },
  'save-body': { keys: ['s'], what: 'save the response body, the exact bytes received, to a file (asks before replacing one)' },
  'toggle-hex': { keys: ['x'], what: 'hex view of the body on or off (on by itself for a binary body)' },
  timing: { keys: ['t'], what: 'timing of the response: DNS, connect, TLS, first byte, download, total' },
  history: { keys: ['H'], what: 'history: the sends of this project and profile, newest first; Enter shows one' },
  pin: { keys: ['w'], what: 'pin the response shown (W compares with it)' },
  diff: { keys: ['W'], what: 'compare the response shown with the pinned one (a diff, JSON field by field)' },
  edit: { keys: ['E'], what: 'open the selected request in $VISUAL / $EDITOR (else vi) at its line; reloaded after' },
  stress: { keys: ['L'], what: "stress-test the selected request (workers, duration or count) with reqflow stress's engine; progress in the status bar, Esc stops" },
  'new-file': { keys: ['a'], what: 'new request file beside the selected one' },
  'duplicate-file': { keys: ['D'], what: 'duplicate the selected request file (never over an existing file)' },
  'rename-file': { keys: ['R'], what: 'rename the selected request file (never over an existing file)' },
  'delete-file': { keys: ['delete'], what: "move the selected request file to reqflow's trash, after asking" },
  escape: { keys: ['escape'], what: "cancel the selected request's send or stream; stop a stress run; show the whole body after J; leave full screen; clear the filter" },
  'oauth-settings': { keys: ['O'], what: "configure the profile's OAuth settings (saved into .profiles.json)" },
  'oauth-login': { keys: ['o'], what: 'log in with OAuth (authorization code flow in the browser)' },
  reload: { keys: ['r'], what: 'reload the request files and the profiles (request files also reload by themselves when changed)' },
  help: { keys: ['?'], what: 'list every key' },
  quit: { keys: ['q'], what: 'quit (Ctrl-C always quits)' },
};

export const ACTION_NAMES = Object.keys(ACTIONS) as Action[];

/** Key names as people write them: `↓`, `S-Tab`, `Ctrl-P`, `PgDn`, `Esc`. */
export function keyLabel(full: string): string {
  const named: Record<string, string> = { down: '↓', up: '↑', left: '←', right: '→', enter: 'Enter', escape: 'Esc', tab: 'Tab', 'S-tab': 'S-Tab', pagedown: 'PgDn', pageup: 'PgUp', home: 'Home', end: 'End', space: 'Space', backspace: 'Backspace', delete: 'Del' };
  if (named[full]) return named[full];
  const ctrl = /^C-(.+)$/.exec(full);
  if (ctrl) return `Ctrl-${(ctrl[1] as string).toUpperCase()}`;
  const alt = /^M-(.+)$/.exec(full);
  return alt ? `Alt-${alt[1]}` : full;
}

/** The keys of each action (defaults, or as the key bindings file sets them). */
export type Bindings = Readonly<Record<Action, readonly string[]>>;

export const DEFAULT_BINDINGS: Bindings = Object.fromEntries(ACTION_NAMES.map((action) => [action, ACTIONS[action].keys])) as Bindings;

/** An action's keys for people. */
export function keysText(bindings: Bindings, action: Action): string {
  return bindings[action].map(keyLabel).join('  ');
}

/** The other name terminals give a key: `G` arrives as `S-g` or `G`. */
export function twinKey(key: string): string | undefined {
  if (/^[A-Z]$/.test(key)) return `S-${key.toLowerCase()}`;
  return /^S-[a-z]$/.test(key) ? key.slice(2).toUpperCase() : undefined;
}

/** Key (`key.full`, either name of a shifted letter) → action, for the main screen. */
export function keyMap(bindings: Bindings): ReadonlyMap<string, Action> {
  const map = new Map<string, Action>();
  for (const action of ACTION_NAMES) {
    for (const key of bindings[action]) {
      map.set(key, action);
      const twin = twinKey(key);
      if (twin !== undefined) map.set(twin, action);
    }
  }
  return map;
}

/** The `?` table for a window `width` columns wide, descriptions wrapped under themselves. */
export function helpLines(bindings: Bindings): (width: number) => string[] {
  const rows = ACTION_NAMES.map((action) => [keysText(bindings, action), ACTIONS[action].what] as const);
  return (width) => {
    const keyWidth = Math.min(18, Math.max(...rows.map(([keys]) => [...keys].length))) + 2;
    return rows.flatMap(([keys, what]) => {
      const head = [...keys].length >= keyWidth ? [keys] : [];
      const first = head.length > 0 ? ' '.repeat(keyWidth) : keys.padEnd(keyWidth);
      return [...head, ...wrap(`${first}${what}`, width, ' '.repeat(keyWidth))];
    });
  };
}
