/**
 * JSON text that holds nothing a terminal or a line reader acts on: `JSON.stringify` escapes C0
 * controls (ESC too) but writes DEL, C1 controls (U+009B is a terminal's CSI), bidi overrides
 * and isolates as they are. Escaped as `\u009b`, every JSON parser reads the same value back.
 * Used by what reqflow prints as JSON and by the state files it writes (a hostile server's text
 * ends up in both: `cat` or `tail -f` of either must not run it).
 */

function hex4(code: number): string {
  return code.toString(16).padStart(4, '0');
}

/** Code points a terminal acts on that JSON text may hold unescaped: DEL, C1 controls, bidi overrides and isolates. */
const JSON_UNSAFE: ReadonlyArray<readonly [number, number]> = [
  [0x7f, 0x9f],
  [0x202a, 0x202e],
  [0x2066, 0x2069],
];
/** {@link JSON_UNSAFE} as the inside of a RegExp character class (the TUI's pager draws them as U+FFFD). */
export const TERMINAL_ACTING_RANGES = JSON_UNSAFE.map(([from, to]) => `\\u${hex4(from)}-\\u${hex4(to)}`).join('');
const UNSAFE_IN_JSON = new RegExp(`[${TERMINAL_ACTING_RANGES}]`, 'g');
/** Those, and U+2028/U+2029: valid raw in JSON text, but line ends to readers that split lines as Unicode does (Python's `splitlines`). */
const UNSAFE_IN_STATE = new RegExp(`[${TERMINAL_ACTING_RANGES}\\u2028\\u2029]`, 'g');

const escaped = (char: string): string => `\\u${hex4(char.charCodeAt(0))}`;

/** Whether JSON output should write this code point as a `\u` escape (see {@link visibleJson}). */
export function unsafeInJson(code: number): boolean {
  for (const [from, to] of JSON_UNSAFE) if (code >= from && code <= to) return true;
  return false;
}

/**
 * JSON text with the characters of {@link unsafeInJson} as `\u009b`-style escapes: the same JSON
 * value for any parser, and nothing a terminal acts on. Outside strings JSON has no such
 * characters, so the text stays valid.
 */
export function visibleJson(text: string): string {
  return text.replace(UNSAFE_IN_JSON, escaped);
}

/** `value` as the JSON text of a state file (a history line, a session): {@link visibleJson}'s escapes, and U+2028/U+2029 escaped too. */
export function stateJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(UNSAFE_IN_STATE, escaped);
}
