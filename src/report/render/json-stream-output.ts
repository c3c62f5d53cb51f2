import { COMMIT_BYTES, Expect, FLUSH_BYTES, type Frame, INITIAL_BYTES, JsonHoldLimitError, type JsonPrettyOptions, MAX_TRACKED_KEYS, Token, wrapper } from './json-stream-shared.js';

/**
 * The output side of the streaming JSON pretty-printer: a growing byte buffer, indentation, and
 * how much of it may be handed to `write` (objects that may still be reordered are held). The
 * layers above (structure, then tokens) write through these methods.
 */
export abstract class JsonOutput {
  protected o: Buffer = Buffer.allocUnsafe(INITIAL_BYTES);
  protected p = 0;
  /** Bytes handed to `write` so far: absolute offset of `o[0]`. */
  protected base = 0;
  protected readonly stack: Frame[] = [];
  protected top: Frame | undefined;
  /** Per depth: the keys of the last object closed there (see {@link Frame.shape}). */
  protected readonly shapes: Array<string[] | undefined> = [];
  protected expect = Expect.Value;
  protected token = Token.None;
  protected consumed = 0;
  protected started = false;
  protected warned = false;
  protected utf8Tail: Buffer | undefined;
  // Token in progress across chunks.
  protected text = '';
  /** Input offset where the number or literal in `text` began (for error positions). */
  protected tokenStart = 0;
  protected keyStart = 0;
  protected keyDecodes = false;
  protected escape = 0;
  protected hex = 0;
  protected highSurrogate = -1;
  /** A UTF-8 sequence of a string cut by the chunk end, kept until it is whole (see scanSequence). */
  protected split: number[] = [];
  protected readonly keyColour: [Uint8Array, Uint8Array];
  protected readonly stringColour: [Uint8Array, Uint8Array];
  protected readonly numberColour: [Uint8Array, Uint8Array];
  protected readonly literalColour: [Uint8Array, Uint8Array];

  constructor(
    protected readonly write: (bytes: Buffer) => void,
    protected readonly options: JsonPrettyOptions = {},
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

  /** Writes everything produced so far, held objects included (used before showing an error). */
  flushAll(): void {
    if (this.p === 0) return;
    this.write(this.o.subarray(0, this.p));
    this.base += this.p;
    // What was written belongs to the caller now: later output goes to a new buffer.
    this.o = this.o.subarray(this.p);
    this.p = 0;
  }

  // ---- output -------------------------------------------------------------------------

  protected position(): number {
    return this.base + this.p;
  }

  protected ensure(extra: number): void {
    if (this.p + extra > this.o.length) this.settle(extra);
  }

  protected bytes(bytes: Uint8Array): void {
    const length = bytes.length;
    if (length === 0) return;
    this.ensure(length);
    this.o.set(bytes, this.p);
    this.p += length;
  }

  protected copy(b: Buffer, from: number, to: number): void {
    this.ensure(to - from);
    const o = this.o;
    let p = this.p;
    for (let k = from; k < to; k++) o[p++] = b[k] as number;
    this.p = p;
  }

  protected ascii(text: string): void {
    this.ensure(text.length);
    const o = this.o;
    let p = this.p;
    for (let k = 0; k < text.length; k++) o[p++] = text.charCodeAt(k);
    this.p = p;
  }

  protected byte(value: number): void {
    this.ensure(1);
    this.o[this.p++] = value;
  }

  /** A newline and the indent of `depth`, after a comma when `comma`. */
  protected indent(depth: number, comma: boolean): void {
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
  protected settle(extra: number): void {
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
  protected heldFrom(): number {
    let held = this.position();
    for (const frame of this.stack) {
      if (frame.isObject && !frame.committed) {
        held = frame.start;
        break;
      }
    }
    return this.token === Token.Key ? Math.min(held, this.keyStart) : held;
  }

  protected commit(frame: Frame): void {
    frame.committed = true;
    frame.memberStarts = [];
    if (frame.keys && frame.keys.length > MAX_TRACKED_KEYS) {
      frame.keys = null;
      frame.keySet = undefined;
    }
  }
  protected abstract fail(b: Buffer, i: number): never;
}
