/**
 * Text a server controls (a reason phrase, headers, a text body, event names, error messages)
 * reaches a terminal only with its control characters made visible, never executed: an escape
 * sequence could move the cursor, retitle the window, or set the clipboard (OSC 52). C0
 * controls (but tab and newline) become their Unicode pictures (ESC → ␛, CR → ␍, DEL → ␡);
 * C1 controls and bidirectional overrides become `<U+009B>`-style marks.
 */
import { codePointName } from '../../core/code-point.js';
import { TERMINAL_ACTING_RANGES } from '../../core/json-escape.js';

// The JSON escape lives in core (state files use it too); what prints JSON imports it from here.
export { TERMINAL_ACTING_RANGES, unsafeInJson, visibleJson } from '../../core/json-escape.js';

const UNSAFE = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f${TERMINAL_ACTING_RANGES}]`, 'g');

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

