import type { Key } from './blessed.js';

/**
 * One line of editable text with a cursor: the filter, prompts and form fields share it.
 * Keys it does not handle are left to the caller (it returns false).
 */
export class LineEditor {
  cursor: number;

  constructor(public value = '') {
    this.cursor = [...value].length;
  }

  set(value: string): void {
    this.value = value;
    this.cursor = [...value].length;
  }

  /** Applies a key; true when it was an editing key. */
  handle(ch: string | undefined, key: Key): boolean {
    const chars = [...this.value];
    switch (key.full) {
      case 'backspace':
        if (this.cursor > 0) {
          chars.splice(this.cursor - 1, 1);
          this.cursor -= 1;
        }
        break;
      case 'delete':
      case 'C-d':
        chars.splice(this.cursor, 1);
        break;
      case 'left':
      case 'C-b':
        this.cursor = Math.max(0, this.cursor - 1);
        return true;
      case 'right':
      case 'C-f':
        this.cursor = Math.min(chars.length, this.cursor + 1);
        return true;
      case 'home':
      case 'C-a':
        this.cursor = 0;
        return true;
      case 'end':
      case 'C-e':
        this.cursor = chars.length;
        return true;
      case 'C-u':
        chars.splice(0, this.cursor);
        this.cursor = 0;
        break;
      case 'C-k':
        chars.splice(this.cursor);
        break;
      case 'C-w': {
        const before = chars.slice(0, this.cursor).join('');
        const kept = withoutLastWord(before);
        chars.splice(0, this.cursor, ...kept);
        this.cursor = [...kept].length;
        break;
      }
      default: {
        // Printable text (a paste arrives as one chunk of several characters).
        if (ch === undefined || key.ctrl || key.meta || /[\u0000-\u001f\u007f]/.test(ch)) return false;
        const typed = [...ch];
        chars.splice(this.cursor, 0, ...typed);
        this.cursor += typed.length;
      }
    }
    this.value = chars.join('');
    return true;
  }

  /**
   * The text to draw in `width` columns, the cursor as an inverted cell. Secret values are
   * drawn as bullets: hidden, yet the user sees that the keys arrive.
   */
  render(width: number, options: { secret?: boolean; focused?: boolean; placeholder?: string } = {}): string {
    const chars = options.secret ? [...this.value].map(() => '•') : [...this.value];
    if (chars.length === 0 && !options.focused && options.placeholder) return `\u001b[2m${options.placeholder.slice(0, width)}\u001b[0m`;
    const start = Math.max(0, this.cursor - width + 1);
    const visible = chars.slice(start, start + width);
    if (!options.focused) return visible.join('');
    const at = this.cursor - start;
    const under = visible[at] ?? ' ';
    return `${visible.slice(0, at).join('')}\u001b[7m${under}\u001b[27m${visible.slice(at + 1).join('')}`;
  }
}

/** Ctrl-W: the text without its last word and the spaces after it (a scan: `\S+\s*$` tried a long word from each of its characters). */
function withoutLastWord(text: string): string {
  let end = text.trimEnd().length;
  while (end > 0 && !/\s/.test(text[end - 1] as string)) end--;
  return text.slice(0, end);
}
