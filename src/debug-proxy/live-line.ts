/**
 * The line printed for each exchange and tunnel as it ends: time, what, status, duration, size —
 * its URL masked like everywhere else (secret query parameters, known secret values) and any
 * control character a client or server sent made visible.
 */
import { displayUrl } from '../core/mask.js';
import { shownDuration } from '../history/format.js';
import type { RecordedExchange } from '../history/entry.js';
import { formatSize } from '../report/render/describe.js';
import { visible } from '../report/render/visible.js';
import type { TunnelReport } from './tunnel.js';

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** `14:03:07`, local time. */
function clock(epochMs: number): string {
  const date = new Date(epochMs);
  return `${pad2(date.getHours())}:${pad2(date.getMinutes())}:${pad2(date.getSeconds())}`;
}

export function exchangeLine(exchange: RecordedExchange, scrub: (text: string) => string): string {
  const { response, error } = exchange;
  const parts = [clock(exchange.startedAt), `${exchange.method} ${displayUrl(exchange.url, scrub)}`];
  if (response) parts.push(String(response.status), shownDuration(exchange.durationMs), formatSize(response.size));
  else parts.push('502', shownDuration(exchange.durationMs));
  if (error) parts.push(`(${scrub(error.message)})`);
  return visible(parts.join('  '));
}

export function tunnelLine(tunnel: TunnelReport): string {
  const parts = [clock(tunnel.startedAt), `CONNECT ${tunnel.target}`];
  if (tunnel.error !== undefined) parts.push('502', shownDuration(tunnel.durationMs), `(${tunnel.error})`);
  else parts.push('tunnel', `↑ ${formatSize(tunnel.up)}`, `↓ ${formatSize(tunnel.down)}`, shownDuration(tunnel.durationMs));
  if (tunnel.idleClosedMs !== undefined) parts.push(`(closed: nothing passed for ${tunnel.idleClosedMs} ms)`);
  return visible(parts.join('  '));
}
