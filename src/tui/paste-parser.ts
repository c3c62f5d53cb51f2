/** What a terminal in bracketed paste mode sends around a paste (xterm's DECSET 2004). */
export const PASTE_START = '\u001b[200~';
export const PASTE_END = '\u001b[201~';

/** The most a paste keeps: the UI's fields hold one line, and a paste is held whole until it ends. */
export const MAX_PASTE_CHARS = 1_000_000;

/** A paste, whole: its text as sent (line breaks and controls included: the field decides). */
export interface Paste {
  text: string;
  /** Characters past {@link MAX_PASTE_CHARS}, left out. */
  dropped: number;
  /** Its end never came (the terminal went quiet in the middle of it): this is what came. */
  unfinished: boolean;
}

/** The terminal's input in order: what is typed (keys, for the key parser) and pastes. */
export type InputPiece = { kind: 'keys'; text: string } | { kind: 'paste'; paste: Paste };

/**
 * Splits the terminal's decoded input into keys and pastes: everything between
 * {@link PASTE_START} and {@link PASTE_END} is one paste, however the reads cut it — a marker
 * cut in two is put together again. A paste is delivered once it ends, so its text is never
 * seen as keys: a line break in it is no Enter, a `q` no quit.
 */
export class PasteParser {
  private inPaste = false;
  /** The beginning of a marker at the end of the last read, waiting for its rest. */
  private held = '';
  /** The last read ended in ESC or `ESC [`, passed on as a key: a next read that starts with the rest of the start marker still starts a paste. */
  private keyTail = '';
  private parts: string[] = [];
  private length = 0;
  private dropped = 0;

  /** Inside a paste, waiting for its end. */
  get pasting(): boolean {
    return this.inPaste;
  }

  /** The pieces that one read completes, in order. */
  push(chunk: string): InputPiece[] {
    const pieces: InputPiece[] = [];
    let text = this.held + chunk;
    this.held = '';
    const rest = PASTE_START.slice(this.keyTail.length);
    if (this.keyTail !== '' && text.startsWith(rest)) {
      this.inPaste = true; // the Escape (or Alt-[) went as a key: at worst it closed a window, and the paste is ignored
      text = text.slice(rest.length);
    }
    this.keyTail = '';
    while (text !== '') {
      if (!this.inPaste) {
        const start = text.indexOf(PASTE_START);
        if (start < 0) {
          this.held = heldStart(text);
          const keys = text.slice(0, text.length - this.held.length);
          if (keys !== '') pieces.push({ kind: 'keys', text: keys });
          if (this.held === '') this.keyTail = keys.endsWith('\u001b[') ? '\u001b[' : keys.endsWith('\u001b') ? '\u001b' : '';
          break;
        }
        if (start > 0) pieces.push({ kind: 'keys', text: text.slice(0, start) });
        this.inPaste = true;
        text = text.slice(start + PASTE_START.length);
        continue;
      }
      const end = text.indexOf(PASTE_END);
      if (end < 0) {
        this.held = heldEnd(text);
        this.keep(text.slice(0, text.length - this.held.length));
        break;
      }
      this.keep(text.slice(0, end));
      pieces.push({ kind: 'paste', paste: this.take(false) });
      text = text.slice(end + PASTE_END.length);
    }
    return pieces;
  }

  /** The paste in progress, as it stands, when its end is not coming (see terminal-input.ts). */
  end(): Paste | undefined {
    if (!this.inPaste) return undefined;
    this.keep(this.held);
    this.held = '';
    return this.take(true);
  }

  private keep(text: string): void {
    const room = MAX_PASTE_CHARS - this.length;
    if (text.length > room) this.dropped += text.length - Math.max(0, room);
    if (room <= 0) return;
    const kept = text.length > room ? text.slice(0, room) : text;
    this.parts.push(kept);
    this.length += kept.length;
  }

  private take(unfinished: boolean): Paste {
    const paste = { text: this.parts.join(''), dropped: this.dropped, unfinished };
    this.inPaste = false;
    this.parts = [];
    this.length = 0;
    this.dropped = 0;
    return paste;
  }
}

/**
 * The end of typed input that may be a paste's start cut by the read: `ESC [ 2`, `ESC [ 20`,
 * `ESC [ 200` — never a key on its own. A lone ESC (the Escape key) and `ESC [` (Alt-[) are
 * keys, passed on at once (see `keyTail`).
 */
function heldStart(text: string): string {
  for (let length = PASTE_START.length - 1; length >= 3; length--) {
    if (text.endsWith(PASTE_START.slice(0, length))) return text.slice(-length);
  }
  return '';
}

/** The end of a paste's text that may be the beginning of its end marker. */
function heldEnd(text: string): string {
  for (let length = PASTE_END.length - 1; length >= 1; length--) {
    if (text.endsWith(PASTE_END.slice(0, length))) return text.slice(-length);
  }
  return '';
}
