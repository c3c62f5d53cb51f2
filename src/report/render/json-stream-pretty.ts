/**
 * A streaming JSON pretty-printer: UTF-8 bytes go in chunk by chunk, and what comes out is
 * exactly `JSON.stringify(JSON.parse(text), null, 2)` as UTF-8 — without ever building the
 * document, so a 100 MiB response is printed in constant memory. It works on bytes, never on
 * per-token strings, which is what makes it fast (a 100 MiB document in well under a second).
 *
 * Exactness needs care in four places, because `JSON.parse` + `JSON.stringify` normalise:
 * - numbers: `1.0` → `1`, `1e2` → `100`, `-0` → `0`, `1e400` → `null` (re-serialised through
 *   `Number`, which rounds exactly like `JSON.parse`);
 * - strings: escapes are decoded and re-escaped the way `JSON.stringify` does (`\u00e9` → `é`,
 *   `\/` → `/`, lone surrogates → `\udxxx`), one code unit at a time;
 * - objects whose keys are array indexes (`"0"` … `"4294967294"`): JS objects list those first,
 *   in ascending order;
 * - duplicate keys: the last value wins, at the position of the first.
 * The last two need an object's members before it closes, so every object is held until it
 * closes or until it has produced {@link COMMIT_BYTES} of output. An object that turns out to
 * need reordering is held until it closes (up to `holdLimit` bytes); an object that has
 * already been written when such a key arrives is shown in document order, with one warning.
 */
import { isUtf8 } from 'node:buffer';
import type { Palette } from './colors.js';

/** Output held back for reordering before an object is written out as it comes. */
const COMMIT_BYTES = 1 << 20;
/** Output is handed to `write` in pieces of at least this size. */
const FLUSH_BYTES = 64 * 1024;
/** Small to start with (most bodies are small, and a batch run prints thousands); grows as needed. */
const INITIAL_BYTES = 4 * 1024;
/** Keys remembered per written-out object to spot a late duplicate. */
const MAX_TRACKED_KEYS = 100_000;
/** Objects with more keys than this do not become the shape their siblings are compared with. */
const MAX_SHAPE_KEYS = 1000;
/** Largest array index key (JS objects order these first): 2^32 - 2. */
const MAX_INDEX = 4294967294;

const enum Expect {
  Value,
  ValueOrClose,
  Key,
  KeyOrClose,
  Colon,
  CommaOrClose,
  Done,
}

const enum Token {
  None,
  String,
  Key,
  Number,
  Literal,
}

/** A JSON syntax error; `offset` is the byte position in the whole input. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at position ${offset}`);
    this.name = 'JsonSyntaxError';
  }
}

/** The input is not UTF-8 (JSON text always is). */
export class JsonEncodingError extends Error {
  constructor() {
    super('the input is not valid UTF-8');
    this.name = 'JsonEncodingError';
  }
}

/** More output would have to be held (for key reordering) than allowed. */
export class JsonHoldLimitError extends Error {
  constructor(readonly limit: number) {
    super(`an object whose keys must be reordered is larger than ${limit} bytes`);
    this.name = 'JsonHoldLimitError';
  }
}

interface Frame {
  isObject: boolean;
  /** Nesting depth of the container's members (1 for a top-level container). */
  depth: number;
  count: number;
  /** Objects: absolute output offset of `{`. */
  start: number;
  /** Objects: written out already (no reordering possible any more). */
  committed: boolean;
  /**
   * Objects: the keys of the previous object at this depth. While this object's keys repeat
   * them in order (the usual case: an array of records), no key can be a duplicate or out of
   * order, and nothing else needs remembering.
   */
  shape: string[] | undefined;
  shapeOk: boolean;
  /** Objects: decoded keys in document order, once they differ from `shape` (null: too many to track). */
  keys: string[] | null;
  keySet: Set<string> | undefined;
  /** Objects: absolute output offset where each member's text starts (after the comma). */
  memberStarts: number[];
  lastIndex: number;
  sawNonIndex: boolean;
  /** Objects: some key needs reordering or is a duplicate. */
  disorder: boolean;
}

export interface JsonPrettyOptions {
  /** Colours for keys, strings, numbers and literals (plain when absent). */
  colors?: Palette;
  /** Most bytes held for an object that needs reordering (default: unlimited). */
  holdLimit?: number;
  /** Called (once) when a written-out object turns out to need reordering. */
  onWarning?: (message: string) => void;
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const INDEX_KEY = /^(?:0|[1-9]\d{0,9})$/;
const SHORT_ESCAPES: Record<number, string> = { 0x22: '\\"', 0x5c: '\\\\', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t' };
/** `\X` escapes other than `\u`: the code unit each stands for. */
const ESCAPED: Record<number, number> = { 0x22: 0x22, 0x5c: 0x5c, 0x2f: 0x2f, 0x62: 0x08, 0x66: 0x0c, 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09 };
const LITERALS = ['true', 'false', 'null'].map((word) => Buffer.from(word));
const EMPTY = new Uint8Array(0);

/** How `JSON.stringify(JSON.parse(text))` writes a valid JSON number that the fast path did not take. */
function normalNumber(text: string): string {
  const value = Number(text);
  return Number.isFinite(value) ? String(value) : 'null';
}

function isIndexKey(key: string): boolean {
  const first = key.charCodeAt(0);
  return first >= 0x30 && first <= 0x39 && INDEX_KEY.test(key) && Number(key) <= MAX_INDEX;
}

function isDigit(byte: number): boolean {
  return byte >= 0x30 && byte <= 0x39;
}

function isNumberByte(byte: number): boolean {
  return isDigit(byte) || byte === 0x2d || byte === 0x2b || byte === 0x2e || byte === 0x65 || byte === 0x45;
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** Bytes in the UTF-8 sequence that starts with `lead` (1 for anything not a lead byte). */
function sequenceLength(lead: number): number {
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}

function describe(byte: number | undefined): string {
  if (byte === undefined) return 'end of input';
  return byte >= 0x20 && byte < 0x7f ? `token ${JSON.stringify(String.fromCharCode(byte))}` : `byte 0x${byte.toString(16).padStart(2, '0')}`;
}

/** ANSI wrappers of one palette colour, as bytes: [open, close]. */
function wrapper(colour: ((text: string) => string) | undefined): [Uint8Array, Uint8Array] {
  if (!colour) return [EMPTY, EMPTY];
  const [open = '', close = ''] = colour('\u0000').split('\u0000');
  return [Buffer.from(open), Buffer.from(close)];
}

/**
 * Feed UTF-8 bytes with {@link push}, finish with {@link end}; output arrives through `write`
 * in order, as buffers the caller may keep. Throws {@link JsonSyntaxError} (or
 * {@link JsonEncodingError}) on invalid input; output already written stays written.
 */
export class JsonPrettyPrinter {
  private o: Buffer = Buffer.allocUnsafe(INITIAL_BYTES);
  private p = 0;
  /** Bytes handed to `write` so far: absolute offset of `o[0]`. */
  private base = 0;
  private readonly stack: Frame[] = [];
  private top: Frame | undefined;
  /** Per depth: the keys of the last object closed there (see {@link Frame.shape}). */
  private readonly shapes: Array<string[] | undefined> = [];
  private expect = Expect.Value;
  private token = Token.None;
  private consumed = 0;
  private started = false;
  private warned = false;
  private utf8Tail: Buffer | undefined;
  // Token in progress across chunks.
  private text = '';
  /** Input offset where the number or literal in `text` began (for error positions). */
  private tokenStart = 0;
  private keyStart = 0;
  private keyDecodes = false;
  private escape = 0;
  private hex = 0;
  private highSurrogate = -1;
  private readonly keyColour: [Uint8Array, Uint8Array];
  private readonly stringColour: [Uint8Array, Uint8Array];
  private readonly numberColour: [Uint8Array, Uint8Array];
  private readonly literalColour: [Uint8Array, Uint8Array];

  constructor(
    private readonly write: (bytes: Buffer) => void,
    private readonly options: JsonPrettyOptions = {},
  ) {
    const colors = options.colors !== undefined && options.colors.string('x') !== 'x' ? options.colors : undefined;
    this.keyColour = wrapper(colors?.key);
    this.stringColour = wrapper(colors?.string);
    this.numberColour = wrapper(colors?.number);
    this.literalColour = wrapper(colors?.literal);
  }

  /** Bytes of output written so far (handed to `write`). */
  get written(): number {
    return this.base;
  }

  push(chunk: Uint8Array): void {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const n = b.length;
    this.checkUtf8(b);
    let i = 0;
    // TextDecoder drops a byte-order mark; so does this (JSON.parse of the decoded text never sees it).
    if (this.consumed === 0 && n >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) i = 3;
    if (this.token !== Token.None) i = this.continueToken(b, i);
    while (i < n) {
      const c = b[i] as number;
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
      } else if (c === 0x22) {
        const isKey = this.expect === Expect.Key || this.expect === Expect.KeyOrClose;
        if (isKey) {
          this.memberPrefix(this.top as Frame);
          this.bytes(this.keyColour[0]);
          this.keyStart = this.position();
          this.keyDecodes = false;
        } else {
          this.valuePrefix(b, i);
          this.bytes(this.stringColour[0]);
        }
        this.token = isKey ? Token.Key : Token.String;
        // Copy plain content straight through; escapes and chunk ends take the slow path.
        this.ensure(n - i + 1);
        const o = this.o;
        let p = this.p;
        o[p++] = 0x22;
        let j = i + 1;
        for (; j < n; j++) {
          const d = b[j] as number;
          if (d === 0x22 || d === 0x5c || d < 0x20) break;
          o[p++] = d;
        }
        this.p = p;
        if (j < n && b[j] === 0x22) {
          this.endString();
          i = j + 1;
        } else {
          i = this.scanString(b, j);
        }
      } else if (c === 0x2c) {
        if (this.expect !== Expect.CommaOrClose) this.fail(b, i);
        this.expect = (this.top as Frame).isObject ? Expect.Key : Expect.Value;
        i++;
      } else if (c === 0x3a) {
        if (this.expect !== Expect.Colon) this.fail(b, i);
        this.expect = Expect.Value;
        i++;
      } else if (c === 0x2d || isDigit(c)) {
        this.valuePrefix(b, i);
        const end = this.plainNumberEnd(b, i);
        if (end > 0) {
          this.bytes(this.numberColour[0]);
          this.copy(b, i, end);
          this.bytes(this.numberColour[1]);
          this.afterValue();
          i = end;
        } else {
          i = this.scanRun(b, i, Token.Number);
        }
      } else if (c === 0x7b || c === 0x5b) {
        this.valuePrefix(b, i);
        this.open(c === 0x7b);
        i++;
      } else if (c === 0x7d || c === 0x5d) {
        this.close(c === 0x7d, b, i);
        i++;
      } else if (c >= 0x61 && c <= 0x7a) {
        this.valuePrefix(b, i);
        const word = LITERALS[c === 0x74 ? 0 : c === 0x66 ? 1 : 2] as Buffer;
        if (i + word.length <= n && b.compare(word, 0, word.length, i, i + word.length) === 0) {
          this.bytes(this.literalColour[0]);
          this.bytes(word);
          this.bytes(this.literalColour[1]);
          this.afterValue();
          i += word.length;
        } else {
          i = this.scanRun(b, i, Token.Literal);
        }
      } else {
        this.fail(b, i);
      }
    }
    this.consumed += n;
    this.settle(0);
  }

  /** The input is complete: finishes the last token and writes everything held. */
  end(): void {
    if (this.utf8Tail) throw new JsonEncodingError();
    if (this.token === Token.Number || this.token === Token.Literal) this.finishRun();
    else if (this.token !== Token.None) throw new JsonSyntaxError('Unterminated string', this.consumed);
    if (!this.started) throw new JsonSyntaxError('Unexpected end of input (the body is empty)', this.consumed);
    if (this.expect !== Expect.Done) throw new JsonSyntaxError('Unexpected end of input', this.consumed);
    this.flushAll();
  }

  /** Writes everything produced so far, held objects included (used before showing an error). */
  flushAll(): void {
    if (this.p === 0) return;
    this.write(this.o.subarray(0, this.p));
    this.base += this.p;
    // What was written belongs to the caller now: later output goes to a new buffer.
    this.o = this.o.subarray(this.p);
    this.p = 0;
  }

  // ---- input checks -------------------------------------------------------------------

  /** Validates UTF-8 chunk by chunk; a sequence split across chunks is checked once complete. */
  private checkUtf8(b: Buffer): void {
    let from = 0;
    if (this.utf8Tail) {
      const tail = this.utf8Tail;
      const need = sequenceLength(tail[0] as number) - tail.length;
      if (b.length < need) {
        this.utf8Tail = Buffer.concat([tail, b]);
        return;
      }
      if (!isUtf8(Buffer.concat([tail, b.subarray(0, need)]))) throw new JsonEncodingError();
      this.utf8Tail = undefined;
      from = need;
    }
    let end = b.length;
    let lead = end - 1;
    while (lead >= from && lead > end - 4 && ((b[lead] as number) & 0xc0) === 0x80) lead--;
    if (lead >= from && (b[lead] as number) >= 0xc0 && sequenceLength(b[lead] as number) > end - lead) {
      this.utf8Tail = Buffer.from(b.subarray(lead, end));
      end = lead;
    }
    if (!isUtf8(b.subarray(from, end))) throw new JsonEncodingError();
  }

  /**
   * End of a number that prints unchanged — a short integer, or a short decimal without
   * trailing zero or exponent, complete in this chunk — or 0 when it needs the slow path.
   * (At most 15 significant digits always survive the trip through a double unchanged.)
   */
  private plainNumberEnd(b: Buffer, i: number): number {
    const n = b.length;
    let j = b[i] === 0x2d ? i + 1 : i;
    const intStart = j;
    while (j < n && isDigit(b[j] as number)) j++;
    const intDigits = j - intStart;
    if (intDigits === 0 || (intDigits > 1 && b[intStart] === 0x30)) return 0;
    let digits = intDigits;
    if (j < n && b[j] === 0x2e) {
      const fracStart = ++j;
      while (j < n && isDigit(b[j] as number)) j++;
      const fracDigits = j - fracStart;
      if (fracDigits === 0 || b[j - 1] === 0x30) return 0;
      if (b[intStart] === 0x30) {
        let zeros = 0;
        while (b[fracStart + zeros] === 0x30) zeros++;
        if (zeros > 5) return 0; // below 1e-6 JavaScript prints an exponent
      }
      digits += fracDigits;
    } else if (intDigits === 1 && b[intStart] === 0x30 && intStart > i) {
      return 0; // -0 prints as 0
    }
    if (j >= n || digits > 15) return 0;
    const next = b[j] as number;
    return next === 0x65 || next === 0x45 || next === 0x2e || next === 0x2b || next === 0x2d || isDigit(next) ? 0 : j;
  }

  // ---- output -------------------------------------------------------------------------

  private position(): number {
    return this.base + this.p;
  }

  private ensure(extra: number): void {
    if (this.p + extra > this.o.length) this.settle(extra);
  }

  private bytes(bytes: Uint8Array): void {
    const length = bytes.length;
    if (length === 0) return;
    this.ensure(length);
    this.o.set(bytes, this.p);
    this.p += length;
  }

  private copy(b: Buffer, from: number, to: number): void {
    this.ensure(to - from);
    const o = this.o;
    let p = this.p;
    for (let k = from; k < to; k++) o[p++] = b[k] as number;
    this.p = p;
  }

  private ascii(text: string): void {
    this.ensure(text.length);
    const o = this.o;
    let p = this.p;
    for (let k = 0; k < text.length; k++) o[p++] = text.charCodeAt(k);
    this.p = p;
  }

  private byte(value: number): void {
    this.ensure(1);
    this.o[this.p++] = value;
  }

  /** A newline and the indent of `depth`, after a comma when `comma`. */
  private indent(depth: number, comma: boolean): void {
    this.ensure(2 * depth + 2);
    const o = this.o;
    let p = this.p;
    if (comma) o[p++] = 0x2c;
    o[p++] = 0x0a;
    for (let k = 2 * depth; k > 0; k--) o[p++] = 0x20;
    this.p = p;
  }

  /**
   * Commits objects that have produced enough output, hands finished output to `write`, and
   * makes room for `extra` more bytes.
   */
  private settle(extra: number): void {
    let held = this.heldFrom();
    if (this.position() - held > COMMIT_BYTES) {
      for (const frame of this.stack) {
        if (!frame.isObject || frame.committed) continue;
        if (frame.disorder || this.position() - frame.start <= COMMIT_BYTES) break;
        this.commit(frame);
      }
      held = this.heldFrom();
      // Objects are always held up to COMMIT_BYTES; the limit bounds what reordering holds beyond that.
      const limit = this.options.holdLimit;
      if (limit !== undefined && this.position() - held > Math.max(limit, COMMIT_BYTES)) throw new JsonHoldLimitError(limit);
    }
    const cut = held - this.base;
    const room = this.p + extra > this.o.length;
    if (cut < FLUSH_BYTES && !room) return;
    const keep = this.p - cut;
    // The written part goes to `write` as is (the caller may keep it); the held rest moves to a new buffer.
    const next = Buffer.allocUnsafe(Math.max(cut > 0 ? 2 * FLUSH_BYTES : 2 * this.o.length, 2 * (keep + extra)));
    this.o.copy(next, 0, cut, this.p);
    if (cut > 0) this.write(this.o.subarray(0, cut));
    this.o = next;
    this.p = keep;
    this.base += cut;
  }

  /** Output from here on may still change (an open object, or a key being read). */
  private heldFrom(): number {
    let held = this.position();
    for (const frame of this.stack) {
      if (frame.isObject && !frame.committed) {
        held = frame.start;
        break;
      }
    }
    return this.token === Token.Key ? Math.min(held, this.keyStart) : held;
  }

  private commit(frame: Frame): void {
    frame.committed = true;
    frame.memberStarts = [];
    if (frame.keys && frame.keys.length > MAX_TRACKED_KEYS) {
      frame.keys = null;
      frame.keySet = undefined;
    }
  }

  // ---- structure ----------------------------------------------------------------------

  /** Checks that a value may come here; writes what precedes it (separator and indent in arrays). */
  private valuePrefix(b: Buffer, i: number): void {
    if (this.expect !== Expect.Value && this.expect !== Expect.ValueOrClose) this.fail(b, i);
    this.started = true;
    const top = this.top;
    if (top !== undefined && !top.isObject) this.indent(top.depth, top.count++ > 0);
  }

  /** Writes what precedes a key; notes where the member starts, for reordering. */
  private memberPrefix(frame: Frame): void {
    const later = frame.count++ > 0;
    if (!frame.committed) frame.memberStarts.push(this.position() + (later ? 1 : 0));
    this.indent(frame.depth, later);
  }

  private afterValue(): void {
    this.expect = this.top === undefined ? Expect.Done : Expect.CommaOrClose;
  }

  private open(isObject: boolean): void {
    const depth = this.stack.length + 1;
    const shape = isObject ? this.shapes[depth] : undefined;
    const frame: Frame = {
      isObject,
      depth,
      count: 0,
      start: this.position(),
      committed: false,
      shape,
      shapeOk: shape !== undefined,
      keys: isObject && shape === undefined ? [] : null,
      keySet: undefined,
      memberStarts: [],
      lastIndex: -1,
      sawNonIndex: false,
      disorder: false,
    };
    this.stack.push(frame);
    this.top = frame;
    this.byte(isObject ? 0x7b : 0x5b);
    this.expect = isObject ? Expect.KeyOrClose : Expect.ValueOrClose;
  }

  private close(isObject: boolean, b: Buffer, i: number): void {
    const frame = this.top;
    const allowed = isObject ? this.expect === Expect.KeyOrClose : this.expect === Expect.ValueOrClose;
    if (!frame || frame.isObject !== isObject || (!allowed && this.expect !== Expect.CommaOrClose)) this.fail(b, i);
    this.stack.pop();
    this.top = this.stack[this.stack.length - 1];
    if (isObject && !frame.committed) {
      if (frame.disorder) this.reorder(frame);
      else if (!frame.shapeOk && frame.keys && frame.keys.length <= MAX_SHAPE_KEYS) this.shapes[frame.depth] = frame.keys;
    }
    if (frame.count > 0) this.indent(frame.depth - 1, false);
    this.byte(isObject ? 0x7d : 0x5d);
    this.afterValue();
  }

  /** The closing quote of a string or key has been read. */
  private endString(): void {
    if (this.highSurrogate >= 0) this.unit(-1);
    this.byte(0x22);
    if (this.token === Token.Key) {
      this.token = Token.None;
      this.finishKey();
    } else {
      this.token = Token.None;
      this.bytes(this.stringColour[1]);
      this.afterValue();
    }
  }

  private finishKey(): void {
    const frame = this.top as Frame;
    const from = this.keyStart + 1 - this.base;
    const to = this.p - 1;
    if (!this.sameAsShape(frame, from, to)) {
      const text = this.o.toString('utf8', from, to);
      this.checkKey(frame, this.keyDecodes ? (JSON.parse(`"${text}"`) as string) : text);
    }
    this.bytes(this.keyColour[1]);
    this.ensure(2);
    this.o[this.p++] = 0x3a;
    this.o[this.p++] = 0x20;
    this.expect = Expect.Colon;
  }

  /** Is the key just written (ASCII, no escapes) the one the previous sibling had here? */
  private sameAsShape(frame: Frame, from: number, to: number): boolean {
    if (!frame.shapeOk || this.keyDecodes) return false;
    const expected = (frame.shape as string[])[frame.count - 1];
    if (expected === undefined || expected.length !== to - from) return false;
    const o = this.o;
    for (let k = 0; k < expected.length; k++) {
      const byte = o[from + k] as number;
      if (byte >= 0x80 || byte !== expected.charCodeAt(k)) return false;
    }
    return true;
  }

  /** Notes keys that `JSON.parse` would move (array indexes after other keys) or merge (duplicates). */
  private checkKey(frame: Frame, key: string): void {
    const position = frame.count - 1;
    if (frame.shapeOk) {
      // Different from the previous sibling: remember the keys so far the long way.
      frame.shapeOk = false;
      frame.keys = (frame.shape as string[]).slice(0, position);
      for (const earlier of frame.keys) {
        if (isIndexKey(earlier)) frame.lastIndex = Number(earlier);
        else frame.sawNonIndex = true;
      }
    }
    let problem: string | undefined;
    const keys = frame.keys;
    if (keys) {
      if (keys.length > 16 && !frame.keySet) frame.keySet = new Set(keys);
      const seen = frame.keySet ? frame.keySet.has(key) : keys.includes(key);
      if (seen) problem = `duplicate key ${JSON.stringify(key)}`;
      if (keys.length >= MAX_TRACKED_KEYS && frame.committed) {
        frame.keys = null;
        frame.keySet = undefined;
      } else {
        keys.push(key);
        frame.keySet?.add(key);
      }
    }
    if (isIndexKey(key)) {
      const index = Number(key);
      if (frame.sawNonIndex || index <= frame.lastIndex) problem ??= `key ${JSON.stringify(key)} that JSON.parse moves forward`;
      frame.lastIndex = Math.max(frame.lastIndex, index);
    } else {
      frame.sawNonIndex = true;
    }
    if (problem === undefined) return;
    if (!frame.committed) {
      frame.disorder = true;
    } else if (!this.warned) {
      this.warned = true;
      this.options.onWarning?.(`an object larger than ${COMMIT_BYTES >> 20} MiB has a ${problem} after it was printed; it is shown in document order`);
    }
  }

  /**
   * Rewrites a held object's members in `JSON.parse` order: array-index keys first in
   * ascending order, then the others in first-seen order, each with its last value.
   */
  private reorder(frame: Frame): void {
    const keys = frame.keys as string[];
    const starts = frame.memberStarts;
    const end = this.position();
    const texts = starts.map((start, k) => Buffer.from(this.o.subarray(start - this.base, (k + 1 < starts.length ? (starts[k + 1] as number) - 1 : end) - this.base)));
    const slot = new Map<string, number>();
    const order: string[] = [];
    keys.forEach((key, k) => {
      if (!slot.has(key)) order.push(key);
      slot.set(key, k);
    });
    const indexes = order.filter(isIndexKey).sort((a, c) => Number(a) - Number(c));
    const others = order.filter((key) => !isIndexKey(key));
    const members = [...indexes, ...others].map((key) => texts[slot.get(key) as number] as Buffer);
    this.p = frame.start + 1 - this.base;
    members.forEach((member, k) => {
      if (k > 0) this.byte(0x2c);
      this.bytes(member);
    });
    frame.count = members.length;
  }

  // ---- tokens -------------------------------------------------------------------------

  private continueToken(b: Buffer, i: number): number {
    if (this.token === Token.String || this.token === Token.Key) return this.scanString(b, i);
    return this.scanRun(b, i, this.token);
  }

  /** Numbers and literals the fast path did not take, possibly split across chunks. */
  private scanRun(b: Buffer, i: number, token: Token): number {
    const n = b.length;
    let j = i;
    if (token === Token.Number) while (j < n && isNumberByte(b[j] as number)) j++;
    else while (j < n && (b[j] as number) >= 0x61 && (b[j] as number) <= 0x7a) j++;
    if (this.token !== token) {
      this.text = '';
      this.tokenStart = this.consumed + i;
    }
    this.token = token;
    this.text += b.toString('latin1', i, j);
    if (j < n) this.finishRun();
    return j;
  }

  private finishRun(): void {
    const text = this.text;
    const token = this.token;
    this.token = Token.None;
    this.text = '';
    if (token === Token.Number) {
      if (!NUMBER.test(text)) throw new JsonSyntaxError(`Invalid number ${JSON.stringify(text)}`, this.tokenStart);
      this.bytes(this.numberColour[0]);
      this.ascii(normalNumber(text));
      this.bytes(this.numberColour[1]);
    } else {
      if (text !== 'true' && text !== 'false' && text !== 'null') throw new JsonSyntaxError(`Unexpected token ${JSON.stringify(text)}`, this.tokenStart);
      this.bytes(this.literalColour[0]);
      this.ascii(text);
      this.bytes(this.literalColour[1]);
    }
    this.afterValue();
  }

  /** String content from `j` (the slow path); returns the index after the closing quote, or the chunk length. */
  private scanString(b: Buffer, j: number): number {
    const n = b.length;
    for (;;) {
      if (this.escape !== 0) {
        j = this.scanEscape(b, j);
        if (this.escape !== 0) return n;
        continue;
      }
      if (j >= n) return n;
      const c = b[j] as number;
      if (c === 0x5c) {
        this.escape = 1;
        j++;
        continue;
      }
      if (this.highSurrogate >= 0) this.unit(-1);
      if (c === 0x22) {
        this.endString();
        return j + 1;
      }
      if (c < 0x20) throw new JsonSyntaxError('Bad control character in string literal', this.consumed + j);
      this.ensure(n - j);
      const o = this.o;
      let p = this.p;
      for (; j < n; j++) {
        const d = b[j] as number;
        if (d === 0x22 || d === 0x5c || d < 0x20) break;
        o[p++] = d;
      }
      this.p = p;
    }
  }

  /** After a backslash: one escape, possibly split across chunks. */
  private scanEscape(b: Buffer, j: number): number {
    const n = b.length;
    if (this.token === Token.Key) this.keyDecodes = true;
    if (this.escape === 1) {
      if (j >= n) return j;
      const c = b[j] as number;
      j++;
      if (c === 0x75) {
        this.escape = 2;
        this.hex = 0;
      } else {
        const unit = ESCAPED[c];
        if (unit === undefined) throw new JsonSyntaxError(`Bad escaped character ${describe(c)} in string`, this.consumed + j - 1);
        this.escape = 0;
        this.unit(unit);
        return j;
      }
    }
    while (this.escape >= 2 && j < n) {
      const digit = hexValue(b[j] as number);
      if (digit < 0) throw new JsonSyntaxError('Bad Unicode escape in string', this.consumed + j);
      this.hex = this.hex * 16 + digit;
      j++;
      if (++this.escape === 6) {
        this.escape = 0;
        this.unit(this.hex);
      }
    }
    return j;
  }

  /**
   * One decoded code unit (from an escape), written the way JSON.stringify does; a high
   * surrogate waits for the next unit to see whether it is half of a pair. `-1` means "no
   * further escaped unit follows directly" (raw text or the end of the string).
   */
  private unit(unit: number): void {
    if (this.highSurrogate >= 0) {
      const high = this.highSurrogate;
      this.highSurrogate = -1;
      if (unit >= 0xdc00 && unit <= 0xdfff) {
        this.codePoint(0x10000 + ((high - 0xd800) << 10) + (unit - 0xdc00));
        return;
      }
      this.ascii(`\\u${high.toString(16)}`);
    }
    if (unit < 0) return;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      this.highSurrogate = unit;
      return;
    }
    const short = SHORT_ESCAPES[unit];
    if (short !== undefined) this.ascii(short);
    else if (unit < 0x20 || (unit >= 0xdc00 && unit <= 0xdfff)) this.ascii(`\\u${unit.toString(16).padStart(4, '0')}`);
    else this.codePoint(unit);
  }

  /** One code point as UTF-8. */
  private codePoint(cp: number): void {
    this.ensure(4);
    const o = this.o;
    if (cp < 0x80) {
      o[this.p++] = cp;
    } else if (cp < 0x800) {
      o[this.p++] = 0xc0 | (cp >> 6);
      o[this.p++] = 0x80 | (cp & 0x3f);
    } else if (cp < 0x10000) {
      o[this.p++] = 0xe0 | (cp >> 12);
      o[this.p++] = 0x80 | ((cp >> 6) & 0x3f);
      o[this.p++] = 0x80 | (cp & 0x3f);
    } else {
      o[this.p++] = 0xf0 | (cp >> 18);
      o[this.p++] = 0x80 | ((cp >> 12) & 0x3f);
      o[this.p++] = 0x80 | ((cp >> 6) & 0x3f);
      o[this.p++] = 0x80 | (cp & 0x3f);
    }
  }

  private fail(b: Buffer, i: number): never {
    throw new JsonSyntaxError(`Unexpected ${describe(b[i])}`, this.consumed + i);
  }
}

/** Pretty-prints a whole JSON text at once (tests, small bodies): the same output as the stream. */
export function prettyJsonText(text: string, options: JsonPrettyOptions = {}): string {
  const parts: Buffer[] = [];
  const printer = new JsonPrettyPrinter((part) => parts.push(part), options);
  printer.push(Buffer.from(text, 'utf8'));
  printer.end();
  return Buffer.concat(parts).toString('utf8');
}
