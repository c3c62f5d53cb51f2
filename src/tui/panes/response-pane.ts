import { shownTime } from '../../history/format.js';
import { formatSize } from '../../report/render/describe.js';
import { stripAnsi } from '../response-capture.js';
import type { Exchange } from '../exchange.js';
import { HexLines, JoinedLines, StoredLines, TextLines, type LineSource } from '../pager/line-source.js';
import type { RequestState } from '../request-states.js';
import { colors, errorText, fit, headersText, responseSummary, visibleLength } from '../views/format.js';
import { checksText } from './checks-view.js';

export interface ResponsePaneState {
  /** The selected request's own state (its running send, its last response). */
  request: RequestState;
  showHeaders: boolean;
  /** `x`: true or false when the user chose; else hex for a binary body only. */
  hex: boolean | undefined;
  /** Inner width of the pane. */
  width: number;
  /** Shown for a request never sent (a profile problem, or the hint). */
  idle: string;
  /** `performance.now()`: the elapsed time of a running send. */
  now: number;
  /** The folder shown: checks name their file relative to it. */
  root: string;
  scrub(text: string): string;
}

/** `1.2s` since `startedAt`. */
export function elapsed(startedAt: number, now: number): string {
  return `${(Math.max(0, now - startedAt) / 1000).toFixed(1)}s`;
}

function labelOf(state: ResponsePaneState): string {
  const { running, shown } = state.request;
  if (running) {
    const meta = running.capture.meta;
    if (running.capture.streaming) {
      const head = meta ? `${colors.status(meta.status, String(meta.status))} · ` : '';
      return ` ${head}streaming… ${elapsed(running.startedAt, state.now)}${meta ? ` · ${formatSize(meta.size)}` : ''} · Esc stops `;
    }
    return ` sending… ${elapsed(running.startedAt, state.now)} · Esc cancels `;
  }
  const meta = shown?.capture.meta;
  return meta ? ` ${responseSummary(meta)} ` : ' Response ';
}

/** Notes above a response: restored from the history, cancelled, what ran first for it, its error, its warnings. */
function notes(exchange: Exchange, state: ResponsePaneState): string[] {
  const { capture, outcome } = exchange;
  const parts: string[] = [];
  if (exchange.restored) parts.push(colors.dim(`from the history: sent ${shownTime(exchange.restored)} (H lists the sends)`), '');
  if (state.request.cancelledBefore && !state.request.running) parts.push(colors.warn('cancelled · the previous response is kept below'), '');
  if (exchange.ranFirst.length > 0) {
    const ran = exchange.ranFirst.map((dep) => (dep.failed ? colors.error(`${dep.name} (${state.scrub(dep.result)})`) : `${dep.name} ${colors.dim(`(${dep.result})`)}`));
    parts.push(`${colors.dim('ran first:')} ${ran.join(', ')}`, '');
  }
  if (outcome?.error && !exchange.cancelled) parts.push(errorText(outcome.error, state.scrub, exchange.exitUnrecorded === true), '');
  if (exchange.cancelled && !capture.streaming) parts.push(colors.warn('cancelled'), '');
  for (const warning of capture.warnings) parts.push(colors.warn(`warning: ${state.scrub(warning)}`));
  if (capture.warnings.length > 0) parts.push('');
  if (outcome?.tests && outcome.tests.length > 0) parts.push(checksText(outcome.tests, state.root, state.scrub), '');
  return parts;
}

/** The exchange the pane shows: a stream's events as they come; a plain send shows the previous response meanwhile. */
export function shownExchange(request: RequestState): Exchange | undefined {
  const { running, shown } = request;
  return running?.capture.meta !== undefined || running?.capture.streaming ? running : (shown ?? running);
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
 * The response pane's title and lines (for the pager) for the selected request: never sent (a
 * hint), sending (live elapsed time), its response (status, notes, checks, headers with h, then
 * the whole body — rendered, as received, or in hex — or the events), its error, or cancelled
 * (the previous response kept).
 */
export function responsePaneView(state: ResponsePaneState): { label: string; source: LineSource } {
  const { width } = state;
  const { running } = state.request;
  const exchange = shownExchange(state.request);
  const label = labelOf(state);
  const fitted = visibleLength(label) > width ? ` ${fit(stripAnsi(label).trim(), width - 2)} ` : label;
  if (!exchange) return { label: fitted, source: new TextLines(state.idle.split('\n')) };
  if (exchange === running && running.capture.meta === undefined && !running.capture.streaming) return { label: fitted, source: new TextLines([colors.dim('waiting for the response…')]) };
  const { capture } = exchange;
  const parts = notes(exchange, state);
  if (state.showHeaders && capture.meta) parts.push(headersText(capture.meta), '');
  if (capture.truncated) parts.push(colors.dim('… earlier events dropped: a stream keeps its newest 8 MB'));
  const hex = showsHex(exchange, state.hex);
  const size = formatSize(capture.bytes?.length ?? 0);
  if (hex) parts.push(colors.dim(`${capture.raw === 'binary' ? 'binary body' : 'body'}, ${size}, in hex (x switches the view · s saves the bytes)`));
  else if (capture.raw === 'text') parts.push(colors.dim(`${size}: shown as received, not formatted (s saves the bytes)`));
  const body = bodySource(exchange, hex);
  return { label: fitted, source: parts.length > 0 ? new JoinedLines([new TextLines(parts.join('\n').split('\n')), body]) : body };
}
