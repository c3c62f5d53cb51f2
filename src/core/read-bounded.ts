/**
 * Reading an open file, or a stream, whole within a size limit that is never passed: a regular
 * file's size is taken from its stat before a byte is read (a 331 MB HAR read whole took 2.3 GB),
 * and a pipe — which has no size to check first — or a file that grows after its stat is read in
 * chunks and refused as soon as its bytes pass the limit. Each reader words its own refusal.
 * (`reqflow run -` has its own bounded read, `readLimited` in pipeline/read-request-source.ts:
 * that module is on the plain path, this one is not.)
 */
import { fstatSync, readSync } from 'node:fs';
import type { Readable } from 'node:stream';

/** What the refusal is given: the size, and whether it is the file's own (its stat) or only what arrived before the read stopped. */
export interface PastLimit {
  bytes: number;
  stated: boolean;
}

const CHUNK_BYTES = 64 * 1024;

/** Every byte of `fd`, at most `limit`; past it, what `refuse` makes is thrown. Read failures are thrown as `fs` throws them. */
export function readAtMost(fd: number, limit: number, refuse: (past: PastLimit) => Error): Buffer {
  const stat = fstatSync(fd);
  if (stat.isFile() && stat.size > limit) throw refuse({ bytes: stat.size, stated: true });
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) return Buffer.concat(chunks, total);
    total += read;
    if (total > limit) throw refuse({ bytes: total, stated: false });
    chunks.push(read === chunk.length ? chunk : chunk.subarray(0, read));
  }
}

/** Every byte of `stream`, at most `limit`: past it the stream is destroyed (a writer that goes on gets EPIPE) and what `refuse` makes is thrown. */
export async function readStreamAtMost(stream: Readable, limit: number, refuse: (past: PastLimit) => Error): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > limit) {
      stream.destroy();
      throw refuse({ bytes: total, stated: false });
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}
