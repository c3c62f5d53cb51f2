/**
 * The history's lines, encoded straight into one reused buffer: a line is never a string of its
 * own, nor an object handed to `JSON.stringify` — what a request costs the history (issue 23).
 * Only whole lines leave it (`flush`), so each write appends whole lines (O_APPEND: concurrent
 * runs never interleave inside a line).
 */

/** What a JSON string must escape — `"`, `\`, control characters — and any surrogate: `JSON.stringify` escapes a lone one. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Texts up to this long are copied in JavaScript; longer ones (bodies) by `Buffer.write`. */
const PLAIN_COPY = 64;

export class LineBuffer {
  private bytes: Buffer;
  private end = 0;
  /** Where the open line starts: the bytes before it are whole lines. */
  private lineStart = 0;

  /** @param write takes whole lines out when the buffer is full and on `flush` (the bytes are reused after). */
  constructor(
    capacity: number,
    private readonly write: (lines: Buffer) => void,
  ) {
    this.bytes = Buffer.allocUnsafe(capacity);
  }

  /** Bytes of whole lines waiting. */
  get waiting(): number {
    return this.lineStart;
  }

  /** Bytes of the open line. */
  get open(): number {
    return this.end - this.lineStart;
  }

  /** JSON syntax (or text already in JSON form), as it is. */
  raw(text: string): void {
    this.reserve(text.length * 3); // UTF-8: at most 3 bytes a UTF-16 unit
    if (!this.copyPlain(text, false)) this.end += this.bytes.write(text, this.end, 'utf8');
  }

  /** `text` as a JSON string, the same bytes as `JSON.stringify(text)`. */
  string(text: string): void {
    this.reserve(text.length * 3 + 2);
    if (this.copyPlain(text, true)) return;
    if (NEEDS_ESCAPE.test(text)) return this.raw(JSON.stringify(text));
    this.bytes[this.end++] = 0x22;
    this.end += this.bytes.write(text, this.end, 'utf8');
    this.bytes[this.end++] = 0x22;
  }

  /**
   * A short ASCII text copied a byte at a time — most of a line's pieces, each cheaper so than a
   * call into `Buffer.write`. `quoted`: as a JSON string, if JSON leaves it as it is (no control
   * character, `"` or `\`). False, and nothing written, for any other text. The caller reserved room.
   */
  private copyPlain(text: string, quoted: boolean): boolean {
    if (text.length > PLAIN_COPY) return false;
    const bytes = this.bytes;
    let at = this.end;
    if (quoted) bytes[at++] = 0x22;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code > 0x7f || (quoted && (code < 0x20 || code === 0x22 || code === 0x5c))) return false;
      bytes[at++] = code;
    }
    if (quoted) bytes[at++] = 0x22;
    this.end = at;
    return true;
  }

  /** A number as `JSON.stringify` writes it. */
  number(value: number): void {
    this.raw(Number.isFinite(value) ? String(value) : 'null');
  }

  /** The open line is whole (its newline written): it may leave with the next write. */
  closeLine(): void {
    this.lineStart = this.end;
  }

  /** Hands the whole lines to `write`; the open line stays. */
  flush(): void {
    if (this.lineStart === 0) return;
    this.write(this.bytes.subarray(0, this.lineStart));
    this.bytes.copyWithin(0, this.lineStart, this.end);
    this.end -= this.lineStart;
    this.lineStart = 0;
  }

  /** Room for `count` more bytes: whole lines written out first, the buffer grown for a line longer than it. */
  private reserve(count: number): void {
    if (this.end + count <= this.bytes.length) return;
    this.flush();
    if (this.end + count <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.end + count));
    this.bytes.copy(grown, 0, 0, this.end);
    this.bytes = grown;
  }
}
