/**
 * Text a server controls (a reason phrase, headers, a text body, event names, error messages)
 * reaches a terminal only with its control characters made visible, never executed: an escape
 * sequence could move the cursor, retitle the window, or set the clipboard (OSC 52). C0
 * controls (but tab and newline) become their Unicode pictures (ESC → ␛, CR → ␍, DEL → ␡);
 * C1 controls and bidirectional overrides become `<U+009B>`-style marks.
 */
import { codePointName } from '../../core/code-point.js';

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
const UNSAFE = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f${TERMINAL_ACTING_RANGES}]`, 'g');
const UNSAFE_IN_JSON = new RegExp(`[${TERMINAL_ACTING_RANGES}]`, 'g');

export function visible(text: string): string {
  return text.replace(UNSAFE, (char) => {
    const code = char.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return `<${codePointName(code)}>`;
  });
}

/**
 * Text that is one line of reqflow's output (an error message, a hint, a warning, a list cell):
 * as {@link visible}, and a line feed shown as ␤ too — a server's text holding one (an OAuth
 * `error_description`) would otherwise print a line that reads as reqflow's own.
 */
export function visibleLine(text: string): string {
  return visible(text).replace(/\n/g, '\u2424');
}

/** reqflow's warning line of `message` (no line end): one line, whatever a path or a server's text in it holds. */
export const warningLine = (message: string): string => `reqflow: warning: ${visibleLine(message)}`;

/** A text body for reading: CRLF line ends kept as lines, every other control made visible. */
export function visibleText(text: string): string {
  return visible(text.replace(/\r\n/g, '\n'));
}

/** Whether JSON output should write this code point as a `\u` escape (see {@link visibleJson}). */
export function unsafeInJson(code: number): boolean {
  for (const [from, to] of JSON_UNSAFE) if (code >= from && code <= to) return true;
  return false;
}

/**
 * JSON text with the characters of {@link unsafeInJson} as `\u009b`-style escapes: the same JSON
 * value for any parser, and nothing a terminal acts on (`JSON.stringify` escapes only C0).
 * Outside strings JSON has no such characters, so the text stays valid.
 */
export function visibleJson(text: string): string {
  return text.replace(UNSAFE_IN_JSON, (char) => `\\u${hex4(char.charCodeAt(0))}`);
}
