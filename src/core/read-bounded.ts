/**
 * Reading an open file whole within a size limit that is never passed: a regular
 * file's size is taken from its stat before a byte is read (a 331 MB HAR read whole took 2.3 GB),
 * and one that is no regular file, or grows after its stat, is read in chunks and refused as soon
 * as its bytes pass the limit (a stream: read-stream-at-most.ts). Each reader words its own refusal.
 */
import { fstatSync, readSync } from 'node:fs';
import type { PastLimit } from './read-stream-at-most.js';

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
