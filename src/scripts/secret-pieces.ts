/**
 * Pieces of a secret in what a request-file script prints (docs/security.md, "What scripts
 * print"). A script holds a secret as a plain string and may print part of it
 * (`token.slice(0, 10)`) or spell it out (`secret.split('')`), which masking whole values and
 * their encoded forms (core/mask.ts) cannot see. Masked here, in a script's log lines, test
 * messages and errors: every run of {@link PIECE} or more characters that a secret contains —
 * as written, or counting letters and digits only, so that characters printed with something
 * between them (`["s","3","c","r"]`, `s-3-c-r`) are found too.
 */
import { MASK } from '../core/mask.js';

/** The shortest piece masked: shorter runs of a secret's characters are ordinary text (`http`, `2024`). */
const PIECE = 6;

/**
 * The secret characters indexed by pieces: a run normally knows a few tokens and passwords; a
 * private environment file of megabytes is masked whole-value only past this, not held as millions of pieces.
 */
const INDEXED_CHARS = 128 * 1024;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Whether the UTF-16 unit at `at` is a letter or digit; ASCII without the regex (masking reads every unit). */
function letterOrDigit(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 128) return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  return LETTER_OR_DIGIT.test(text[at] as string);
}

/** `Bearer abc…`: an Authorization value is registered with its scheme; the scheme's word is no piece of a secret. */
const SCHEME = /^(?:bearer|basic|digest|token|negotiate)\s+(?=\S)/i;

/** Every run of {@link PIECE} characters of `text`. */
function* runsOf(text: string): Generator<string> {
  for (let at = 0; at + PIECE <= text.length; at++) yield text.slice(at, at + PIECE);
}

/** The letters and digits of `text`, in order. */
function spelled(text: string): string {
  let letters = '';
  // By UTF-16 unit, as `mask` reads the text.
  for (let at = 0; at < text.length; at++) if (letterOrDigit(text, at)) letters += text[at];
  return letters;
}

/**
 * The pieces of a run's secrets, indexed as the run learns them (`secrets` is the run's
 * registry, read again for the ones added since the last text).
 */
export class SecretPieces {
  private readonly written = new Set<string>();
  private readonly letters = new Set<string>();
  private seen = 0;
  private indexed = 0;

  constructor(private readonly secrets: Iterable<string>) {}

  private update(): void {
    let index = 0;
    for (const secret of this.secrets) {
      if (index++ < this.seen) continue;
      const credential = secret.replace(SCHEME, '');
      if (this.indexed + credential.length > INDEXED_CHARS) continue;
      this.indexed += credential.length;
      for (const piece of runsOf(credential)) this.written.add(piece);
      for (const piece of runsOf(spelled(credential))) this.letters.add(piece);
    }
    this.seen = index;
  }

  /**
   * `text` with every piece of a secret replaced by `•••` (overlapping and adjacent pieces as one).
   * One pass over the text, ending a window of {@link PIECE} characters (and one of letters and
   * digits) at each position; the spans are merged as they are found, so a text masked at every
   * position (a secret's piece repeated 10 million times) holds one span, not one per position.
   */
  mask(text: string): string {
    this.update();
    if (this.written.size === 0 || text.length < PIECE) return text;
    // Disjoint [start, end) spans to mask, flat: start, end, start, end… Each span found ends at or
    // after the last one kept, and swallows those it overlaps or touches.
    const spans: number[] = [];
    const add = (start: number, end: number): void => {
      while (spans.length > 0 && (spans[spans.length - 1] as number) >= start) {
        start = Math.min(start, spans[spans.length - 2] as number);
        spans.length -= 2;
      }
      spans.push(start, end);
    };
    // Where the last PIECE letters or digits stand, oldest first at `seen % PIECE`.
    const letterAt = new Array<number>(PIECE).fill(0);
    let seen = 0;
    for (let at = 0; at < text.length; at++) {
      const window = at + 1 >= PIECE ? text.slice(at + 1 - PIECE, at + 1) : '';
      if (window !== '' && this.written.has(window)) add(at + 1 - PIECE, at + 1);
      if (!letterOrDigit(text, at)) continue;
      letterAt[seen++ % PIECE] = at;
      if (seen < PIECE) continue;
      const first = letterAt[seen % PIECE] as number;
      // Letters side by side are the window itself; only ones spread out are put together.
      let piece = window;
      if (first !== at + 1 - PIECE) {
        piece = '';
        for (let k = 0; k < PIECE; k++) piece += text[letterAt[(seen + k) % PIECE] as number];
      }
      if (this.letters.has(piece)) add(first, at + 1);
    }
    if (spans.length === 0) return text;
    let out = '';
    let from = 0;
    for (let k = 0; k < spans.length; k += 2) {
      out += text.slice(from, spans[k]) + MASK;
      from = spans[k + 1] as number;
    }
    return out + text.slice(from);
  }
}
