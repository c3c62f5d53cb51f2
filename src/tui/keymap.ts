import { wrap } from './views/format.js';

/** Every key of the UI, as `?` lists them (and docs/tui.md documents them). */
const KEY_HELP: ReadonlyArray<readonly [string, string]> = [
  ['↑ ↓  j k', 'move in the request tree; scroll the request or response pane'],
  ['PgUp PgDn g G', 'page up / down, first / last'],
  ['Enter', 'send the selected request (on a file: fold or unfold it)'],
  ['Tab  S-Tab', 'move the focus: requests → request → response'],
  ['/', 'in the request tree: filter requests by name (Enter keeps the filter, Esc clears it); in the response: search it'],
  ['n  N', 'next / previous match of the response search (match i/N in the status bar)'],
  ['p', 'pick the profile'],
  ['v', 'show variables and where each comes from (-e, session, profile)'],
  ['h', 'show or hide the response headers'],
  ['f', 'full-screen response (scroll with the arrows); f again or Esc returns'],
  ['y', 'copy the response body to the clipboard (OSC 52)'],
  ['C', 'copy the request as sent as a curl command (secrets masked)'],
  ['s', 'save the response body, the exact bytes received, to a file (asks before replacing one)'],
  ['x', 'hex view of the body on or off (on by itself for a binary body)'],
  ['t', 'timing of the response: DNS, connect, TLS, first byte, download, total'],
  ['H', 'history: the sends of this project and profile, newest first; Enter shows one'],
  ['w  W', 'pin the response shown; compare the response shown with the pinned one (a diff)'],
  ['Esc', 'cancel the running request or stream; close a window'],
  ['O', 'configure the profile\'s OAuth settings (saved into .profiles.json)'],
  ['o', 'log in with OAuth (authorization code flow in the browser)'],
  ['E', 'open the selected request in $VISUAL / $EDITOR (else vi) at its line; reloaded after'],
  ['a', 'new request file (beside the selected one)'],
  ['D  R', 'duplicate / rename the selected request file (an existing file is never replaced)'],
  ['Delete', 'move the selected request file to the trash, after asking'],
  ['r', 'reload the request files and the profiles (request files also reload by themselves when changed)'],
  ['?', 'this help'],
  ['q  Ctrl-C', 'quit'],
];

/** The key table for a window `width` columns wide, descriptions wrapped under themselves. */
export function helpLines(width: number): string[] {
  const keyWidth = Math.max(...KEY_HELP.map(([key]) => key.length)) + 2;
  return KEY_HELP.flatMap(([key, what]) => wrap(`${key.padEnd(keyWidth)}${what}`, width, ' '.repeat(keyWidth)));
}

/** What a key does on the main screen (overlays and the filter line handle their own keys). */
export type Action =
  | 'quit'
  | 'focus-next'
  | 'focus-previous'
  | 'down'
  | 'up'
  | 'page-down'
  | 'page-up'
  | 'first'
  | 'last'
  | 'activate'
  | 'escape'
  | 'filter'
  | 'pick-profile'
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
  | 'history'
  | 'pin'
  | 'diff'
  | 'help'
  | 'oauth-settings'
  | 'oauth-login'
  | 'reload'
  | 'edit'
  | 'new-file'
  | 'duplicate-file'
  | 'rename-file'
  | 'delete-file';

/** The key table of the main screen, by neo-blessed's `key.full` name (KEY_HELP above describes it). */
export const KEYMAP: Readonly<Record<string, Action>> = {
  q: 'quit',
  tab: 'focus-next',
  'S-tab': 'focus-previous',
  down: 'down',
  j: 'down',
  up: 'up',
  k: 'up',
  pagedown: 'page-down',
  pageup: 'page-up',
  g: 'first',
  home: 'first',
  'S-g': 'last',
  G: 'last',
  end: 'last',
  enter: 'activate',
  escape: 'escape',
  '/': 'filter',
  p: 'pick-profile',
  v: 'variables',
  h: 'toggle-headers',
  f: 'toggle-fullscreen',
  y: 'copy-body',
  C: 'copy-curl',
  'S-c': 'copy-curl',
  s: 'save-body',
  x: 'toggle-hex',
  t: 'timing',
  n: 'search-next',
  N: 'search-previous',
  'S-n': 'search-previous',
  H: 'history',
  'S-h': 'history',
  w: 'pin',
  W: 'diff',
  'S-w': 'diff',
  '?': 'help',
  'S-o': 'oauth-settings',
  O: 'oauth-settings',
  o: 'oauth-login',
  r: 'reload',
  E: 'edit',
  'S-e': 'edit',
  a: 'new-file',
  D: 'duplicate-file',
  'S-d': 'duplicate-file',
  R: 'rename-file',
  'S-r': 'rename-file',
  delete: 'delete-file',
};
