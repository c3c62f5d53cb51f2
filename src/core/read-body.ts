import { NetworkError } from './errors/index.js';
import type { ResponseInfo } from './pipeline.js';

export const DEFAULT_MAX_SIZE = 512 * 1024 * 1024;

/** Reads the whole body once (later calls get the same buffer); more than `maxSize` bytes is a clear error. */
export async function readWholeBody(response: ResponseInfo, maxSize: number): Promise<Buffer> {
  if (response.body) return response.body;
  const stream = response.stream;
  if (!stream) return (response.body = Buffer.alloc(0));
  if (stream.readableEnded || stream.destroyed) throw new Error('response body was already consumed by another stage');
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxSize) {
      stream.destroy();
      throw new NetworkError(`response is larger than --max-size (${maxSize} bytes)`, { hint: 'raise --max-size, or stream it with -o raw (no filter), which needs no limit' });
    }
    chunks.push(chunk);
  }
  response.body = Buffer.concat(chunks, total);
  return response.body;
}
