import { formatSize } from '../../report/render/describe.js';
import { stripAnsi } from '../response-capture.js';
import type { Exchange } from '../exchange.js';
import type { RequestState } from '../request-states.js';
import { colors, errorText, fit, headersText, limitLines, responseSummary, visibleLength } from '../views/format.js';
import { checksText } from './checks-view.js';

/** Lines a pane holds at most: more makes every redraw slow; `y` still copies everything. */
const PANE_LINES = 3000;

export interface ResponsePaneState {
  /** The selected request's own state (its running send, its last response). */
  request: RequestState;
  showHeaders: boolean;
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

/** Notes above a response: it was cancelled, what ran first for it, its error, its warnings. */
function notes(exchange: Exchange, state: ResponsePaneState): string[] {
  const { capture, outcome } = exchange;
  const parts: string[] = [];
  if (state.request.cancelledBefore && !state.request.running) parts.push(colors.warn('cancelled · the previous response is kept below'), '');
  if (exchange.ranFirst.length > 0) {
    const ran = exchange.ranFirst.map((dep) => (dep.failed ? colors.error(`${dep.name} (${state.scrub(dep.result)})`) : `${dep.name} ${colors.dim(`(${dep.result})`)}`));
    parts.push(`${colors.dim('ran first:')} ${ran.join(', ')}`, '');
  }
  if (outcome?.error && !exchange.cancelled) parts.push(errorText(outcome.error, state.scrub), '');
  if (exchange.cancelled && !capture.streaming) parts.push(colors.warn('cancelled'), '');
  for (const warning of capture.warnings) parts.push(colors.warn(`warning: ${state.scrub(warning)}`));
  if (capture.warnings.length > 0) parts.push('');
  if (outcome?.tests && outcome.tests.length > 0) parts.push(checksText(outcome.tests, state.root, state.scrub), '');
  return parts;
}

/**
 * The response pane's title and text for the selected request: never sent (a hint), sending
 * (live elapsed time), its response (status, notes, checks, headers with h, then the body or
 * the events), its error, or cancelled (the previous response kept).
 */
export function responsePaneView(state: ResponsePaneState): { label: string; content: string } {
  const { width } = state;
  const { running, shown } = state.request;
  // A stream shows its events as they come; a plain send shows the previous response meanwhile.
  const exchange = running?.capture.meta !== undefined || running?.capture.streaming ? running : (shown ?? running);
  const label = labelOf(state);
  const fitted = visibleLength(label) > width ? ` ${fit(stripAnsi(label).trim(), width - 2)} ` : label;
  if (!exchange) return { label: fitted, content: state.idle };
  if (exchange === running && running.capture.meta === undefined && !running.capture.streaming) return { label: fitted, content: colors.dim('waiting for the response…') };
  const { capture } = exchange;
  const parts = notes(exchange, state);
  if (state.showHeaders && capture.meta) parts.push(headersText(capture.meta), '');
  const { text, cut } = limitLines(capture.shown(), PANE_LINES, capture.streaming);
  if (cut > 0 && capture.streaming) parts.push(colors.dim(`… ${cut} earlier lines not shown`));
  parts.push(text);
  if (cut > 0 && !capture.streaming) parts.push(colors.dim(`… ${cut} more lines not shown (y copies the whole body)`));
  if (capture.truncated) parts.push(colors.dim('… the response is larger than the pane keeps'));
  return { label: fitted, content: parts.join('\n') };
}
