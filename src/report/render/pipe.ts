import type { Readable, Writable } from 'node:stream';
import { passThroughCounter } from './pass-through-memory.js';

/**
 * Writes a body to the output without ending it (more requests may follow), honouring
 * back-pressure so a 100 MiB body never sits in memory. When the output goes away
 * (`reqflow run x | head`), the body is dropped and the promise settles instead of hanging.
 * One 'data' listener rather than `source.pipe()`: a batch of small bodies paid for the pipe's
 * half-dozen listeners and its state on every request.
 */
export function pipeTo(source: Readable, target: NodeJS.WritableStream): Promise<void> {
  const sink = target as NodeJS.WritableStream & Writable;
  return new Promise((resolvePromise, reject) => {
    const passed = passThroughCounter();
    const resume = (): void => void source.resume();
    const onData = (chunk: Buffer): void => {
      passed(chunk);
      if (!sink.write(chunk)) {
        source.pause();
        sink.once('drain', resume);
      }
    };
    const cleanup = (): void => {
      // The error listener stays: a body failing after its end must not become an uncaught error.
      source.removeListener('data', onData).removeListener('end', onEnd);
      sink.removeListener('close', onGone).removeListener('error', onGone).removeListener('drain', resume);
    };
    const onEnd = (): void => {
      cleanup();
      resolvePromise();
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
    source.once('error', onError).once('end', onEnd);
    sink.once('close', onGone).once('error', onGone);
    source.on('data', onData);
  });
}
