/**
 * The history's lines, encoded straight into one reused buffer: a line is never a string of its
 * own, nor an object handed to `JSON.stringify` — what a request costs the history (issue 23).
 * Only whole lines leave it (`flush`), so each write appends whole lines (O_APPEND: concurrent
 * runs never interleave inside a line).
 */

/** What a JSON string must escape — `"`, `\`, control characters — and any surrogate: `JSON.stringify` escapes a lone one. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

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
    this.end += this.bytes.write(text, this.end, 'utf8');
  }

  /** `text` as a JSON string, the same bytes as `JSON.stringify(text)`. */
  string(text: string): void {
    if (NEEDS_ESCAPE.test(text)) return this.raw(JSON.stringify(text));
    this.reserve(text.length * 3 + 2);
    this.bytes[this.end++] = 0x22;
    this.end += this.bytes.write(text, this.end, 'utf8');
    this.bytes[this.end++] = 0x22;
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
