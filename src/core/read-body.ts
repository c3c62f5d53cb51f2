import { NetworkError } from './errors/index.js';
import type { ResponseInfo } from './model.js';

/**
 * What a body held whole may reach by default. Holding is the least of it: decoding, parsing and
 * writing a held body cost about eight times its size, so 16 MiB keeps the process near 200 MB
 * at worst (security.md: hostile bodies end in under 256 MB). Streamed output needs no limit.
 */
export const DEFAULT_MAX_SIZE = 16 * 1024 * 1024;

/** Where to go from `--max-size`: on a terminal `-o raw` holds the body too, redirected it streams. */
export const MAX_SIZE_HINT = 'raise --max-size, or redirect it to a file or a pipe with -o raw (no filter), which needs no limit';

/** Reads the whole body once (later calls get the same buffer); more than `maxSize` bytes is a clear error. */
export async function readWholeBody(response: ResponseInfo, maxSize: number): Promise<Buffer> {
  if (response.body) return response.body;
  const stream = response.stream;
  if (!stream) return (response.body = Buffer.alloc(0));
  // A body that failed before anyone read it (a connection error in the head's packet): that failure is the answer.
  if (stream.errored) throw stream.errored;
  if (stream.readableEnded || stream.destroyed) throw new Error('response body was already consumed by another stage');
  // Events, not `for await`: the async iterator costs a promise per chunk, paid by every request of a batch.
  // A body whose length is known is copied into one buffer as it comes: never the chunks and
  // their joined copy at once (twice the body, at its end).
  const expected = knownLength(response, maxSize);
  response.body = await new Promise<Buffer>((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let whole = expected === undefined ? undefined : Buffer.allocUnsafe(expected);
    const settle = (error: Error | undefined): void => {
      stream.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (error) reject(error);
      else resolvePromise(whole ? whole.subarray(0, total) : Buffer.concat(chunks, total));
    };
    const onData = (chunk: Buffer): void => {
      if (whole && total + chunk.length <= whole.length) chunk.copy(whole, total);
      else {
        // More than the server announced: the chunks after all.
        if (whole) chunks.push(whole.subarray(0, total));
        whole = undefined;
        chunks.push(chunk);
      }
      total += chunk.length;
      if (total > maxSize) {
        stream.destroy();
        settle(new NetworkError(`response is larger than --max-size (${maxSize} bytes)`, { hint: MAX_SIZE_HINT }));
      }
    };
    const onEnd = (): void => settle(undefined);
    const onError = (error: Error): void => settle(error);
    // Destroyed without an error (nothing else ends it): the same failure `for await` reported.
    const onClose = (): void => settle(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    stream.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  });
  return response.body;
}

/** The body's length as announced, when the bytes read are the bytes sent (no content coding) and within `maxSize`. */
function knownLength(response: ResponseInfo, maxSize: number): number | undefined {
  if (response.status === 204 || response.status === 304) return undefined; // no body, whatever the header says
  const length = response.headers['content-length'];
  const coding = response.headers['content-encoding'];
  if (typeof length !== 'string' || (coding !== undefined && coding !== 'identity')) return undefined;
  const bytes = Number(length);
  return Number.isSafeInteger(bytes) && bytes > 0 && bytes <= maxSize ? bytes : undefined;
}
