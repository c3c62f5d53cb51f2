/**
 * A stream read whole within a size limit that is never passed (a pipe has no size to check
 * first): on the plain path for `reqflow run -` and piped request files, so apart from
 * read-bounded.ts's file reads.
 */
import type { Readable } from 'node:stream';

/** What the refusal is given: the size, and whether it is the file's own (its stat) or only what arrived before the read stopped. */
export interface PastLimit {
  bytes: number;
  stated: boolean;
}

/**
 * Every byte of `stream`, at most `limit`: past it the stream is destroyed (a writer that goes on
 * gets EPIPE) and what `refuse` makes is thrown. 'data' events, not an async iterator: a plain
 * `reqflow run -` reads its requests with it, and the iterator's machinery costs start-up.
 */
export function readStreamAtMost(stream: Readable, limit: number, refuse: (past: PastLimit) => Error): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    stream.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total <= limit) chunks.push(chunk);
      else {
        stream.destroy();
        reject(refuse({ bytes: total, stated: false }));
      }
    });
    stream.once('end', () => resolvePromise(Buffer.concat(chunks)));
    stream.once('error', reject);
  });
}
