/** An `sse:` route's stream: its events in order, `interval` apart, `repeat` times, then the end. */
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringifyJsonValue } from '../core/json-exact.js';
import type { SseEvent, SseSpec } from './config.js';

/** One event in the wire format: a multi-line text is one `data:` line per line. */
function formatEvent(event: SseEvent, data: unknown): string {
  const text = typeof data === 'string' ? data : (stringifyJsonValue(data) ?? 'null');
  const lines = [
    ...(event.event !== undefined ? [`event: ${event.event}`] : []),
    ...(event.id !== undefined ? [`id: ${event.id}`] : []),
    ...text.split(/\r?\n/).map((line) => `data: ${line}`),
  ];
  return `${lines.join('\n')}\n\n`;
}

/**
 * Sends the stream on `res` (its head already written) and ends it. `render` templates each
 * event's data from the request. Stops early, without writing, once `signal` aborts (the client left).
 */
export async function sendEvents(res: ServerResponse, spec: SseSpec, render: (data: unknown) => Promise<unknown>, signal: AbortSignal): Promise<void> {
  const total = spec.events.length * spec.repeat; // bounded by the config's checks
  try {
    for (let i = 0; i < total && !signal.aborted; i++) {
      if (i > 0) await sleep(spec.intervalMs, undefined, { signal });
      const event = spec.events[i % spec.events.length] as SseEvent;
      res.write(formatEvent(event, await render(event.data)));
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
  res.end();
}
