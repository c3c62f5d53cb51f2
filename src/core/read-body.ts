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
  if (stream.readableEnded || stream.destroyed) throw new Error('response body was already consumed by another stage');
  // Events, not `for await`: the async iterator costs a promise per chunk, paid by every request of a batch.
  response.body = await new Promise<Buffer>((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const settle = (error: Error | undefined): void => {
      stream.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (error) reject(error);
      else resolvePromise(Buffer.concat(chunks, total));
    };
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
      chunks.push(chunk);
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
