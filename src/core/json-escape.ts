/**
 * JSON text that holds nothing a terminal or a line reader acts on: `JSON.stringify` escapes C0
 * controls (ESC too) but writes DEL, C1 controls (U+009B is a terminal's CSI), bidi overrides
 * and isolates as they are, and U+2028/U+2029 (line ends to Unicode line readers). Escaped as
 * `\u009b`, every JSON parser reads the same value back. The one rule for every JSON text reqflow
 * prints (-o json, history and cookie listings, stress and oauth status --json) and every state
 * file it writes (a hostile server's text ends up in both: `cat` or `tail -f` must not run it).
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
/**
 * Those, and U+2028/U+2029: valid raw in JSON text, but line ends to readers that split lines as
 * Unicode does (Python's `splitlines`, a terminal's line reader): one rule for every JSON text
 * reqflow prints or stores.
 */
const UNSAFE_IN_JSON = new RegExp(`[${TERMINAL_ACTING_RANGES}\\u2028\\u2029]`, 'g');

const escaped = (char: string): string => `\\u${hex4(char.charCodeAt(0))}`;

/** Whether JSON output should write this code point as a `\u` escape (see {@link visibleJson}). */
export function unsafeInJson(code: number): boolean {
  if (code === 0x2028 || code === 0x2029) return true;
  for (const [from, to] of JSON_UNSAFE) if (code >= from && code <= to) return true;
  return false;
}

/**
 * JSON text with the characters of {@link unsafeInJson} as `\u009b`-style escapes: the same JSON
 * value for any parser, nothing a terminal acts on, and no line end but `\n`. Outside strings
 * JSON has no such characters, so the text stays valid.
 */
export function visibleJson(text: string): string {
  return text.replace(UNSAFE_IN_JSON, escaped);
}

/** `value` as the JSON text of a state file (a history line, a session), with {@link visibleJson}'s escapes. */
export function stateJson(value: unknown, indent?: number): string {
  return visibleJson(JSON.stringify(value, null, indent));
}
