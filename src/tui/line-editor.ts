import type { Key } from './blessed.js';

/**
 * One line of editable text with a cursor: the filter, prompts and form fields share it.
 * Keys it does not handle are left to the caller (it returns false). Every operation costs the
 * length of the text at most, and drawing the width drawn: a 20,000-character paste stays cheap.
 */
export class LineEditor {
  /** The cursor: a UTF-16 offset into `value`, always between two code points. */
  private at: number;

  constructor(public value = '') {
    this.at = value.length;
  }

  set(value: string): void {
    this.value = value;
    this.at = value.length;
  }

  /** Pasted (or typed at once) text at the cursor, as one line (see {@link fieldText}); false when nothing of it is left. */
  insert(text: string): boolean {
    const line = fieldText(text);
    if (line === '') return false;
    this.splice(this.cursor(), this.cursor(), line);
    return true;
  }

  /** Applies a key; true when it was an editing key. */
  handle(ch: string | undefined, key: Key): boolean {
    const { value } = this;
    const at = this.cursor();
    switch (key.full) {
      case 'backspace':
        if (at > 0) this.splice(before(value, at), at, '');
        return true;
      case 'delete':
      case 'C-d':
        if (at < value.length) this.splice(at, after(value, at), '');
        return true;
      case 'left':
      case 'C-b':
        this.at = before(value, at);
        return true;
      case 'right':
      case 'C-f':
        this.at = after(value, at);
        return true;
      case 'home':
      case 'C-a':
        this.at = 0;
        return true;
      case 'end':
      case 'C-e':
        this.at = value.length;
        return true;
      case 'C-u':
        this.splice(0, at, '');
        return true;
      case 'C-k':
        this.splice(at, value.length, '');
        return true;
      case 'C-w':
        this.splice(withoutLastWord(value.slice(0, at)).length, at, '');
        return true;
      default:
        // Printable text: a key's character (a lone half of a surrogate pair is completed by the next key).
        if (ch === undefined || key.ctrl || key.meta || /[\u0000-\u001f\u007f]/.test(ch)) return false;
        this.splice(at, at, ch);
        return true;
    }
  }

  /**
   * The text to draw in `width` columns, the cursor as an inverted cell. Secret values are
   * drawn as bullets: hidden, yet the user sees that the keys arrive. Only the characters
   * drawn are looked at: the `width` code points up to the cursor and after it.
   */
  render(width: number, options: { secret?: boolean; focused?: boolean; placeholder?: string } = {}): string {
    const { value } = this;
    if (value === '' && !options.focused && options.placeholder) return `\u001b[2m${options.placeholder.slice(0, width)}\u001b[0m`;
    const at = this.cursor();
    let start = at;
    for (let n = 1; n < width && start > 0; n++) start = before(value, start);
    let end = start;
    for (let n = 0; n < width && end < value.length; n++) end = after(value, end);
    const shown = (text: string): string => (options.secret ? '•'.repeat([...text].length) : text);
    if (!options.focused) return shown(value.slice(start, end));
    const under = at < end ? value.slice(at, after(value, at)) : '';
    const rest = at < end ? value.slice(after(value, at), end) : '';
    return `${shown(value.slice(start, at))}\u001b[7m${under === '' ? ' ' : shown(under)}\u001b[27m${shown(rest)}`;
  }

  /** The cursor within the text (`value` is public: a caller may have shortened it). */
  private cursor(): number {
    return Math.min(this.at, this.value.length);
  }

  /** Replaces `from`…`to` with `text`; the cursor goes after it. */
  private splice(from: number, to: number, text: string): void {
    this.value = this.value.slice(0, from) + text + this.value.slice(to);
    this.at = from + text.length;
  }
}

/**
 * Text for a one-line field: line breaks at its ends dropped (a copied line brings its own),
 * each one inside it (CRLF, CR or LF) and each tab a space — the lines of a multi-line paste
 * side by side, nothing lost — and every other control character (C0, DEL, C1: ESC among them)
 * left out: a paste is text, never keys or terminal commands.
 */
export function fieldText(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isBreak(text.charCodeAt(start))) start++;
  while (end > start && isBreak(text.charCodeAt(end - 1))) end--;
  return text
    .slice(start, end)
    .replace(/\r\n|[\r\n\t]/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
}

/** CR or LF (a scan, not a regex anchored at the end: that one is quadratic in a run of them). */
function isBreak(code: number): boolean {
  return code === 0x0d || code === 0x0a;
}

/** The code point boundary before `at`. */
function before(text: string, at: number): number {
  if (at <= 0) return 0;
  const low = text.charCodeAt(at - 1);
  const high = at >= 2 ? text.charCodeAt(at - 2) : 0;
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? at - 2 : at - 1;
}

/** The code point boundary after `at`. */
function after(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const high = text.charCodeAt(at);
  const low = text.charCodeAt(at + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff ? at + 2 : at + 1;
}

/** Ctrl-W: the text without its last word and the spaces after it (a scan: `\S+\s*$` tried a long word from each of its characters). */
function withoutLastWord(text: string): string {
  let end = text.trimEnd().length;
  while (end > 0 && !/\s/.test(text[end - 1] as string)) end--;
  return text.slice(0, end);
}
