import { ExitCode, NetworkError, StreamViolation, isReqflowError } from '../core/errors/index.js';
import type { StreamEvent } from '../core/model.js';
import type { StreamEnd, RequestView } from './reporter.js';

interface StreamOutcome {
  end: StreamEnd;
  count: number;
}

/**
 * Hands each event to `onEvent` the moment it arrives, until the source ends, `onEvent` returns
 * false, `--max-events` or `--stream-timeout` is reached, or the user cancels. `close` releases
 * the source (socket, WebSocket) in every case. An error of the source (a dropped connection)
 * propagates after the events already handled.
 */
export async function consumeEvents(
  ctx: Pick<RequestView, 'options' | 'signal' | 'state'>,
  events: AsyncIterable<StreamEvent>,
  close: () => void,
  /** Returns false for an event that ends the stream (GraphQL's `complete`), 'skip' for one not counted. */
  onEvent: (event: StreamEvent) => Promise<boolean | 'skip' | void> | boolean | 'skip' | void,
): Promise<StreamOutcome> {
  const { maxEvents, streamTimeoutMs } = ctx.options;
  const iterator = events[Symbol.asyncIterator]();
  // Not a `Promise.race` with one long-lived "stopped" promise: each race would leave a reaction
  // on it, never freed while the stream lasts (an endless stream of small events grew by GBs).
  let stoppedBy: StreamEnd | undefined;
  let interrupt: ((end: StreamEnd) => void) | undefined;
  const stop = (end: StreamEnd): void => {
    stoppedBy ??= end;
    interrupt?.(stoppedBy);
  };
  const onAbort = (): void => stop('user');
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  if (ctx.signal.aborted) stop('user');
  const timer = streamTimeoutMs === undefined ? undefined : setTimeout(() => stop('timeout'), streamTimeoutMs);
  let count = 0;
  const finish = (end: StreamEnd): StreamOutcome => {
    if (end === 'user') ctx.state.streamEndedByUser = true;
    return { end, count };
  };
  try {
    for (;;) {
      if (stoppedBy !== undefined) return finish(stoppedBy);
      if (maxEvents !== undefined && count >= maxEvents) return finish('max-events');
      const next = iterator.next();
      const winner = await new Promise<{ result: IteratorResult<StreamEvent> } | { error: unknown } | { end: StreamEnd }>((resolve) => {
        interrupt = (end) => resolve({ end });
        next.then((result) => resolve({ result }), (error: unknown) => resolve({ error }));
      });
      interrupt = undefined;
      if ('end' in winner) {
        next.catch(() => undefined); // closing the source rejects the pending read: expected
        return finish(winner.end);
      }
      if ('error' in winner) {
        if (ctx.signal.aborted) return finish('user'); // Ctrl-C also tears the socket down
        throw brokenStream(winner.error, count);
      }
      if (winner.result.done) return finish('complete');
      const handled = await onEvent(winner.result.value);
      if (handled === false) return finish('complete');
      if (handled !== 'skip') count += 1;
    }
  } finally {
    if (timer) clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
    close();
  }
}

/**
 * A source that fails mid-stream is a dropped connection (exit 4) unless it says otherwise; a
 * server that broke the stream's rules is said as such, with its own hint (the connection did
 * not close: reqflow stopped reading).
 */
function brokenStream(error: unknown, count: number): unknown {
  if (isReqflowError(error) && error.exitCode !== ExitCode.network) return error;
  const events = `${count} event${count === 1 ? '' : 's'}`;
  if (error instanceof StreamViolation) return new StreamViolation(`stopped reading the stream after ${events}: ${error.message}`, { ...(error.hint !== undefined ? { hint: error.hint } : {}), cause: error });
  const why = error instanceof Error ? error.message : String(error);
  return new NetworkError(`the stream broke off after ${events}: ${why}`, {
    hint: 'the connection closed before the server ended the stream; the events above arrived complete',
    cause: error,
  });
}
