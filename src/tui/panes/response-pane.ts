import { shownTime } from '../../history/format.js';
import { formatSize } from '../../report/render/describe.js';
import { stripAnsi } from '../response-capture.js';
import type { Exchange } from '../exchange.js';
import { HexLines, JoinedLines, StoredLines, TextLines, type LineSource } from '../pager/line-source.js';
import { colors, errorText, fit, headersText, responseSummary, visibleLength } from '../views/format.js';

export interface ResponsePaneState {
  exchange: Exchange | undefined;
  running: boolean;
  showHeaders: boolean;
  /** `x`: true or false when the user chose; else hex for a binary body only. */
  hex: boolean | undefined;
  /** Inner width of the pane. */
  width: number;
  /** Shown before anything was sent (a profile problem, or the hint). */
  idle: string;
  scrub(text: string): string;
}

/** True when the body is drawn as a hex dump. */
export function showsHex(exchange: Exchange | undefined, hex: boolean | undefined): boolean {
  const capture = exchange?.capture;
  if (!capture?.bytes) return false;
  return hex ?? capture.raw === 'binary';
}

/** The body's lines: the rendered text, the bytes as received (too large to render), or a hex dump. */
function bodySource(exchange: Exchange, hex: boolean): LineSource {
  const { capture } = exchange;
  if (hex && capture.bytes) return new HexLines(capture.bytes);
  if (capture.raw === 'text') return new StoredLines(capture.bodyLines(), false);
  return new StoredLines(capture.display, true);
}

/**
 * The response pane's title and lines, for the pager: status, errors, warnings, headers (h),
 * then the body (rendered, as received, or in hex) or the events.
 */
export function responsePaneView(state: ResponsePaneState): { label: string; source: LineSource } {
  const { exchange, width } = state;
  if (!exchange) return { label: ' Response ', source: new TextLines(state.idle.split('\n')) };
  const { capture, outcome } = exchange;
  let label = ' Response ';
  if (capture.meta) label = ` ${responseSummary(capture.meta)} `;
  if (state.running) label = capture.streaming ? ` ${capture.meta ? `${responseSummary(capture.meta)} · ` : ''}streaming… Esc stops ` : ' sending… Esc cancels ';
  const parts: string[] = [];
  if (exchange.restored) parts.push(colors.dim(`from the history: sent ${shownTime(exchange.restored)} (H lists the sends)`), '');
  if (outcome?.error && !exchange.cancelled) parts.push(errorText(outcome.error, state.scrub), '');
  if (exchange.cancelled && !capture.streaming) parts.push(colors.warn('cancelled'), '');
  for (const warning of capture.warnings) parts.push(colors.warn(`warning: ${state.scrub(warning)}`));
  if (capture.warnings.length > 0) parts.push('');
  if (state.showHeaders && capture.meta) parts.push(headersText(capture.meta), '');
  if (capture.truncated) parts.push(colors.dim('… earlier events dropped: a stream keeps its newest 8 MB'));
  const hex = showsHex(exchange, state.hex);
  const size = formatSize(capture.bytes?.length ?? 0);
  if (hex) parts.push(colors.dim(`${capture.raw === 'binary' ? 'binary body' : 'body'}, ${size}, in hex (x switches the view · s saves the bytes)`));
  else if (capture.raw === 'text') parts.push(colors.dim(`${size}: shown as received, not formatted (s saves the bytes)`));
  const head = new TextLines(parts.join('\n').split('\n'));
  const fitted = visibleLength(label) > width ? ` ${fit(stripAnsi(label).trim(), width - 2)} ` : label;
  return { label: fitted, source: parts.length > 0 ? new JoinedLines([head, bodySource(exchange, hex)]) : bodySource(exchange, hex) };
}
