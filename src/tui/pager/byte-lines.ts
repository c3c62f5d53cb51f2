/** A line longer than this is indexed as several (cut at a character boundary): a minified 100 MB body stays pageable. */
export const MAX_LINE_BYTES = 1024;

/** Bytes gathered before they become a chunk: small writes (one JSON token each) are not kept one by one. */
const CHUNK_BYTES = 1024 * 1024;

const NEWLINE = 0x0a;
const ESC = 0x1b;

/**
 * Text kept as bytes in chunks, with the offsets of its lines found lazily (only as far as a
 * caller asks): appending is cheap, reading a line touches only its bytes. Lines end at `\n`
 * (not included); an over-long line is split every {@link MAX_LINE_BYTES}.
 */
export class ByteLines {
  private readonly chunks: Buffer[] = [];
  /** Where each chunk starts in the whole text. */
  private readonly chunkStarts: number[] = [];
  private tail = Buffer.alloc(0);
  private tailLength = 0;
  private total = 0;
  /** Byte offset where each known line starts (line 0 at 0). */
  private readonly starts: number[] = [0];
  /** Bytes up to here are indexed. */
  private scanned = 0;

  constructor(initial?: Buffer) {
    if (initial && initial.length > 0) {
      // A body read whole: kept as is, never copied.
      this.chunks.push(initial);
      this.chunkStarts.push(0);
      this.total = initial.length;
    }
  }

  get byteLength(): number {
    return this.total;
  }

  append(bytes: Buffer): void {
    if (bytes.length === 0) return;
    if (this.tailLength + bytes.length > this.tail.length) {
      this.seal();
      if (bytes.length >= CHUNK_BYTES) {
        this.chunks.push(Buffer.from(bytes));
        this.chunkStarts.push(this.total);
        this.total += bytes.length;
        return;
      }
      this.tail = Buffer.allocUnsafe(CHUNK_BYTES);
    }
    bytes.copy(this.tail, this.tailLength);
    this.tailLength += bytes.length;
    this.total += bytes.length;
  }

  /** The gathered tail becomes a chunk of its own. */
  private seal(): void {
    if (this.tailLength === 0) return;
    this.chunks.push(this.tail.subarray(0, this.tailLength));
    this.chunkStarts.push(this.total - this.tailLength);
    this.tail = Buffer.alloc(0);
    this.tailLength = 0;
  }

  /** The byte at `offset` (which must be below byteLength). */
  private byteAt(offset: number): number {
    const sealedEnd = this.total - this.tailLength;
    if (offset >= sealedEnd) return this.tail[offset - sealedEnd] as number;
    const at = this.chunkAt(offset);
    return (this.chunks[at] as Buffer)[offset - (this.chunkStarts[at] as number)] as number;
  }

  private chunkAt(offset: number): number {
    let low = 0;
    let high = this.chunks.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.chunkStarts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** The bytes from `start` to `end`, copied only when they cross a chunk. */
  read(start: number, end: number): Buffer {
    end = Math.min(end, this.total);
    if (start >= end) return Buffer.alloc(0);
    const parts: Buffer[] = [];
    const sealedEnd = this.total - this.tailLength;
    let offset = start;
    while (offset < end && offset < sealedEnd) {
      const at = this.chunkAt(offset);
      const chunk = this.chunks[at] as Buffer;
      const chunkStart = this.chunkStarts[at] as number;
      const piece = chunk.subarray(offset - chunkStart, Math.min(chunk.length, end - chunkStart));
      parts.push(piece);
      offset += piece.length;
    }
    if (offset < end) parts.push(this.tail.subarray(offset - sealedEnd, end - sealedEnd));
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  }

  /** The chunk (or the open tail) holding `offset`, and where it starts. */
  private pieceAt(offset: number): [Buffer, number] {
    const sealedEnd = this.total - this.tailLength;
    if (offset >= sealedEnd) return [this.tail.subarray(0, this.tailLength), sealedEnd];
    const at = this.chunkAt(offset);
    return [this.chunks[at] as Buffer, this.chunkStarts[at] as number];
  }

  /** Where a long line is cut: not inside a UTF-8 character, nor inside an escape sequence. */
  private cutPoint(lineStart: number): number {
    let cut = lineStart + MAX_LINE_BYTES;
    while (cut > lineStart + 1 && ((this.byteAt(cut) & 0xc0) === 0x80)) cut -= 1;
    for (let back = cut - 1; back > cut - 16 && back > lineStart; back -= 1) {
      const byte = this.byteAt(back);
      if (byte === 0x6d /* m */) break;
      if (byte === ESC) return back;
    }
    return cut;
  }

  /** Indexes lines until `line` is known or the text ends: a chunk at a time, each newline found once. */
  private indexTo(line: number): void {
    while (this.starts.length <= line + 1 && this.scanned < this.total) {
      const [piece, base] = this.pieceAt(this.scanned);
      let local = this.scanned - base;
      let newline = -2; // the next newline in this piece at or after `local` (-1: none), looked up once
      while (local < piece.length && this.starts.length <= line + 1) {
        const lineStart = this.starts[this.starts.length - 1] as number;
        if (newline < local && newline !== -1) newline = piece.indexOf(NEWLINE, local);
        const lineEnd = newline >= 0 ? base + newline : base + piece.length;
        if (lineEnd - lineStart > MAX_LINE_BYTES) {
          const cut = this.cutPoint(lineStart);
          this.starts.push(cut);
          local = cut - base;
          if (local < 0) break; // cut back into the previous chunk: go on from there
        } else if (newline >= 0) {
          local = newline + 1;
          this.starts.push(base + local);
        } else local = piece.length; // the line goes on in the next chunk (or is the open last line)
      }
      this.scanned = base + local;
    }
  }

  /** True when line `index` exists (indexes only up to it). */
  hasLine(index: number): boolean {
    this.indexTo(index);
    const start = this.starts[index];
    return start !== undefined && start < this.total;
  }

  /** True when every line is indexed (counting costs nothing more). */
  get indexed(): boolean {
    return this.scanned >= this.total;
  }

  /** Lines so far: a last line without its newline counts. Indexes the whole text once. */
  lineCount(): number {
    this.indexTo(Number.MAX_SAFE_INTEGER);
    const last = this.starts[this.starts.length - 1] as number;
    return this.starts.length - 1 + (last < this.total ? 1 : 0);
  }

  /** The bytes of line `index` without its newline (empty past the end). */
  line(index: number): Buffer {
    this.indexTo(index);
    const start = this.starts[index];
    if (start === undefined || start >= this.total) return Buffer.alloc(0);
    const next = this.starts[index + 1];
    let end = next ?? this.total;
    if (end > start && this.byteAt(end - 1) === NEWLINE) end -= 1;
    return this.read(start, end);
  }

  /** The whole text (copies it: for small texts and tests). */
  all(): Buffer {
    return this.read(0, this.total);
  }
}
