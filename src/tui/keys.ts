import { wrap } from './views/format.js';

/** Every key of the UI, as `?` lists them (and docs/readme/tui.md documents them). */
const KEY_HELP: ReadonlyArray<readonly [string, string]> = [
  ['↑ ↓  j k', 'move in the request tree; scroll the request or response pane'],
  ['PgUp PgDn g G', 'page up / down, first / last'],
  ['Enter', 'send the selected request (on a file: fold or unfold it)'],
  ['Tab  S-Tab', 'move the focus: requests → request → response'],
  ['/', 'filter requests by name (Enter keeps the filter, Esc clears it)'],
  ['p', 'pick the profile'],
  ['v', 'show variables and where each comes from (-e, session, profile)'],
  ['h', 'show or hide the response headers'],
  ['f', 'full-screen response (scroll with the arrows); f again or Esc returns'],
  ['y', 'copy the response body to the clipboard (OSC 52)'],
  ['Esc', 'cancel the running request or stream; close a window'],
  ['O', 'configure the profile\'s OAuth settings (saved into .profiles.json)'],
  ['o', 'log in with OAuth (authorization code flow in the browser)'],
  ['r', 'reload the request files and the profiles'],
  ['?', 'this help'],
  ['q  Ctrl-C', 'quit'],
];

/** The key table for a window `width` columns wide, descriptions wrapped under themselves. */
export function helpLines(width: number): string[] {
  const keyWidth = Math.max(...KEY_HELP.map(([key]) => key.length)) + 2;
  return KEY_HELP.flatMap(([key, what]) => wrap(`${key.padEnd(keyWidth)}${what}`, width, ' '.repeat(keyWidth)));
}
