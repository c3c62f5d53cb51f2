/**
 * The beginning of a body that streams past: the first `limit` bytes are kept (for the history
 * and `--save`), the rest only counted, so a proxied upload or download of any size costs at
 * most `limit` bytes of memory.
 */
export class BodyHead {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  /** Every byte seen. */
  size = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.kept >= this.limit) return;
    const part = chunk.length <= this.limit - this.kept ? chunk : chunk.subarray(0, this.limit - this.kept);
    // A copy when cut: the rest of a large chunk is not kept alive.
    this.chunks.push(part === chunk ? chunk : Buffer.from(part));
    this.kept += part.length;
  }

  /** The bytes kept, or undefined for an empty body. */
  bytes(): Buffer | undefined {
    return this.kept === 0 ? undefined : Buffer.concat(this.chunks, this.kept);
  }
}
