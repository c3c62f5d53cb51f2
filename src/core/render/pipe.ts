import type { Readable } from 'node:stream';

/**
 * Pipes a body to the output without ending it (more requests may follow), honouring
 * back-pressure so a 100 MiB body never sits in memory.
 */
export function pipeTo(source: Readable, target: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const onError = (error: Error): void => {
      source.unpipe(target as NodeJS.WritableStream & import('node:stream').Writable);
      reject(error);
    };
    source.once('error', onError);
    source.once('end', () => resolvePromise());
    source.pipe(target as NodeJS.WritableStream & import('node:stream').Writable, { end: false });
  });
}
