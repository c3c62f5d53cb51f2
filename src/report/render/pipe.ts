import type { Readable, Writable } from 'node:stream';
import { watchPassThrough } from './pass-through-memory.js';

/**
 * Pipes a body to the output without ending it (more requests may follow), honouring
 * back-pressure so a 100 MiB body never sits in memory. When the output goes away
 * (`reqflow run x | head`), the body is dropped and the promise settles instead of hanging.
 */
export function pipeTo(source: Readable, target: NodeJS.WritableStream): Promise<void> {
  const sink = target as NodeJS.WritableStream & Writable;
  return new Promise((resolvePromise, reject) => {
    let unwatch = (): void => {};
    const cleanup = (): void => {
      unwatch();
      source.unpipe(sink);
      sink.removeListener('close', onGone);
      sink.removeListener('error', onGone);
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const onGone = (): void => {
      cleanup();
      source.destroy();
      resolvePromise();
    };
    if (sink.destroyed || sink.writable === false) {
      onGone();
      return;
    }
    source.once('error', onError);
    source.once('end', () => {
      cleanup();
      resolvePromise();
    });
    sink.once('close', onGone);
    sink.once('error', onGone);
    source.pipe(sink, { end: false });
    unwatch = watchPassThrough(source);
  });
}
