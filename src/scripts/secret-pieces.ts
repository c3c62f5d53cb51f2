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

/** `Bearer abc…`: an Authorization value is registered with its scheme; the scheme's word is no piece of a secret. */
const SCHEME = /^(?:bearer|basic|digest|token|negotiate)\s+(?=\S)/i;

/** Every run of {@link PIECE} characters of `text`. */
function* runsOf(text: string): Generator<string> {
  for (let at = 0; at + PIECE <= text.length; at++) yield text.slice(at, at + PIECE);
}

/** The letters and digits of `text`, each with where it stands in it. */
function spelled(text: string): { letters: string; at: number[] } {
  let letters = '';
  const at: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (!LETTER_OR_DIGIT.test(char)) continue;
    letters += char;
    at.push(index);
  }
  return { letters, at };
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
      for (const piece of runsOf(spelled(credential).letters)) this.letters.add(piece);
    }
    this.seen = index;
  }

  /** `text` with every piece of a secret replaced by `•••` (overlapping and adjacent pieces as one). */
  mask(text: string): string {
    this.update();
    if (this.written.size === 0 || text.length < PIECE) return text;
    // [start, end) spans of the text to mask.
    const spans: Array<[number, number]> = [];
    let at = 0;
    for (const piece of runsOf(text)) {
      if (this.written.has(piece)) spans.push([at, at + PIECE]);
      at++;
    }
    const { letters, at: where } = spelled(text);
    at = 0;
    for (const piece of runsOf(letters)) {
      if (this.letters.has(piece)) spans.push([where[at] as number, (where[at + PIECE - 1] as number) + 1]);
      at++;
    }
    if (spans.length === 0) return text;
    spans.sort((a, b) => a[0] - b[0]);
    let out = '';
    let from = 0;
    let [start, end] = spans[0] as [number, number];
    for (const [next, last] of spans) {
      if (next <= end) end = Math.max(end, last);
      else {
        out += text.slice(from, start) + MASK;
        [from, start, end] = [end, next, last];
      }
    }
    return out + text.slice(from, start) + MASK + text.slice(end);
  }
}
