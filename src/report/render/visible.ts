/**
 * Text a server controls (a reason phrase, headers, a text body, event names, error messages)
 * reaches a terminal only with its control characters made visible, never executed: an escape
 * sequence could move the cursor, retitle the window, or set the clipboard (OSC 52). C0
 * controls (but tab and newline) become their Unicode pictures (ESC → ␛, CR → ␍, DEL → ␡);
 * C1 controls and bidirectional overrides become `<U+009B>`-style marks.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function visible(text: string): string {
  return text.replace(UNSAFE, (char) => {
    const code = char.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
  });
}

/** A text body for reading: CRLF line ends kept as lines, every other control made visible. */
export function visibleText(text: string): string {
  return visible(text.replace(/\r\n/g, '\n'));
}
