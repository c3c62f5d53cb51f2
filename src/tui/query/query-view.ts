import { TextLines, type LineSource } from '../pager/line-source.js';
import { fit, visibleLength } from '../views/format.js';

/** The response pane filtered by the query box: the expression and its last good result. */
export interface QueryResult {
  expression: string;
  lines: string[];
}

/**
 * The query box's state on the response pane: the last result that worked stays while the
 * expression being typed is invalid, until Esc (cleared) or another response (reset).
 */
export class QueryState {
  private result?: QueryResult;
  /** Counts evaluations: a result that arrives after a newer expression or after Esc is dropped. */
  private generation = 0;

  get active(): boolean {
    return this.result !== undefined;
  }

  /** Starts an evaluation; `isCurrent()` tells later whether its result still applies. */
  begin(): () => boolean {
    const mine = ++this.generation;
    return () => mine === this.generation;
  }

  show(result: QueryResult | undefined): void {
    if (result) this.result = result;
    else delete this.result;
  }

  /** Esc, or a new response: the whole body again. True when a filtered view was shown. */
  clear(): boolean {
    this.generation += 1;
    const was = this.active;
    delete this.result;
    return was;
  }

  /** The lines to page instead of the body, and the title (`· J EXPRESSION` after `label`, within `width`), when a result is shown. */
  view(label: string, width: number): { source: LineSource; label: string } | undefined {
    if (!this.result) return undefined;
    const room = width - visibleLength(label) - 5;
    const title = room >= 12 ? `${label}· J ${fit(this.result.expression, room)} ` : ` J ${fit(this.result.expression, Math.max(1, width - 5))} `;
    return { source: new TextLines(this.result.lines), label: title };
  }
}
