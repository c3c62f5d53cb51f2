import { stripAnsi } from '../response-capture.js';
import type { Exchange } from '../exchange.js';
import { colors, errorText, fit, headersText, limitLines, responseSummary, visibleLength } from '../views/format.js';

/** Lines a pane holds at most: more makes every redraw slow; `y` still copies everything. */
const PANE_LINES = 3000;

export interface ResponsePaneState {
  exchange: Exchange | undefined;
  running: boolean;
  showHeaders: boolean;
  /** Inner width of the pane. */
  width: number;
  /** Shown before anything was sent (a profile problem, or the hint). */
  idle: string;
  scrub(text: string): string;
}

/** The response pane's title and text: status, errors, warnings, headers (h), then the body or the events. */
export function responsePaneView(state: ResponsePaneState): { label: string; content: string } {
  const { exchange, width } = state;
  if (!exchange) return { label: ' Response ', content: state.idle };
  const { capture, outcome } = exchange;
  let label = ' Response ';
  if (capture.meta) label = ` ${responseSummary(capture.meta)} `;
  if (state.running) label = capture.streaming ? ` ${capture.meta ? `${responseSummary(capture.meta)} · ` : ''}streaming… Esc stops ` : ' sending… Esc cancels ';
  const parts: string[] = [];
  if (outcome?.error && !exchange.cancelled) parts.push(errorText(outcome.error, state.scrub), '');
  if (exchange.cancelled && !capture.streaming) parts.push(colors.warn('cancelled'), '');
  for (const warning of capture.warnings) parts.push(colors.warn(`warning: ${state.scrub(warning)}`));
  if (capture.warnings.length > 0) parts.push('');
  if (state.showHeaders && capture.meta) parts.push(headersText(capture.meta), '');
  const { text, cut } = limitLines(capture.shown(), PANE_LINES, capture.streaming);
  if (cut > 0 && capture.streaming) parts.push(colors.dim(`… ${cut} earlier lines not shown`));
  parts.push(text);
  if (cut > 0 && !capture.streaming) parts.push(colors.dim(`… ${cut} more lines not shown (y copies the whole body)`));
  if (capture.truncated) parts.push(colors.dim('… the response is larger than the pane keeps'));
  return { label: visibleLength(label) > width ? ` ${fit(stripAnsi(label).trim(), width - 2)} ` : label, content: parts.join('\n') };
}
