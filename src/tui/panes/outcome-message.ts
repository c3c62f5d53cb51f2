import type { Exchange } from '../exchange.js';
import type { Level } from './status-bar.js';

/** The status line after a request: stopped, cancelled, failed, or its status (and a stored token, or the last warning). */
export function outcomeMessage(exchange: Exchange, tokenBefore: string | undefined, tokenAfter: string | undefined): { text: string; level: Level } | undefined {
  const { outcome, capture } = exchange;
  if (!outcome) return undefined;
  if (exchange.cancelled && (capture.streaming || outcome.streamEndedByUser === true)) return { text: 'stream stopped', level: 'warn' };
  if (exchange.cancelled) return { text: `cancelled ${exchange.spec.name}`, level: 'warn' };
  if (outcome.error) return { text: outcome.error.message, level: 'error' };
  const meta = capture.meta;
  const summary = meta ? `${meta.status} ${meta.statusText}`.trim() : 'done';
  if (tokenAfter !== undefined && tokenAfter !== tokenBefore) return { text: `${summary} · token stored in the session as {{token}}`, level: 'ok' };
  if (capture.warnings.length > 0) return { text: `${summary} · warning: ${capture.warnings[capture.warnings.length - 1]}`, level: 'warn' };
  return { text: `${summary} · ${exchange.spec.name}`, level: outcome.exitCode === 0 ? 'ok' : 'warn' };
}
