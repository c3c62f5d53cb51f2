import type { Readable } from 'node:stream';

/** What times a connection's (or a stream's) silences: a socket, an HTTP/2 stream. */
export interface SilenceTimer {
  on(event: 'timeout', listener: () => void): unknown;
  removeListener(event: 'timeout', listener: () => void): unknown;
  setTimeout(ms: number): unknown;
}

const noop = (): void => undefined;

/**
 * Calls `onSilent` when the server has sent nothing of the body for the time-out. The time-out is
 * the server's silence only: while reqflow holds the body back (`held` paused because its reader
 * is behind — a slow pipe, a full decoder) the timer starts again instead; and once `held` has
 * ended (the whole body arrived: what is left is reqflow's own decoding and writing) the watch
 * ends — a kept-alive socket is back in the pool by then, on the pool's idle timer, which is no
 * silence of this body's. Returns the remover.
 */
export function watchSilence(timer: SilenceTimer, held: Readable, timeoutMs: () => number, onSilent: () => void): () => void {
  if (held.readableEnded) return noop;
  const onTimeout = (): void => {
    if (held.isPaused()) timer.setTimeout(timeoutMs());
    else onSilent();
  };
  const stop = (): void => {
    timer.removeListener('timeout', onTimeout);
    held.removeListener('end', stop);
  };
  timer.on('timeout', onTimeout);
  held.once('end', stop);
  return stop;
}
