import { PinnedResponse } from '../actions/pin-diff.js';
import type { Element } from '../blessed.js';
import type { Exchange } from '../exchange.js';
import { Pager } from '../pager/pager.js';
import { QueryState } from '../query/query-view.js';
import { visibleLength } from '../views/format.js';
import type { RequestState } from '../request-states.js';
import { responsePaneView, shownExchange, showsHex, type ResponsePaneState } from './response-pane.js';

/**
 * The response pane's window over the whole response: the pager, the hex choice and following
 * a stream. The app hands it the pane and the exchange; it reads only the rows on screen.
 */
export class ResponseView {
  readonly pager = new Pager();
  /** `w` pins a response, `W` compares with it. */
  readonly pinned = new PinnedResponse();
  /** `J`: the body filtered by a JMESPath/JSONPath expression instead of the whole body, until Esc. */
  readonly query = new QueryState();
  /** `x`: the user's choice of hex view for this response (undefined: hex for binary bodies). */
  private hex: boolean | undefined;
  /** A stream's newest events stay in view until the user scrolls away (G follows again). */
  private followStream = true;
  /** A send from the history shown instead of the selected request's state (`H`), until the next reset. */
  private restored?: Exchange;

  /** A new response (another request selected, a send): top of the body, search cleared, the view chosen by the body. */
  reset(): void {
    this.pager.reset();
    this.hex = undefined;
    this.followStream = true;
    this.query.clear();
    delete this.restored;
  }

  /** Shows a send from the history until the next reset. */
  restore(exchange: Exchange): void {
    this.reset();
    this.restored = exchange;
  }

  /** What the pane shows for the selected request's state: a restored send, else the state. */
  stateOf(selected: RequestState): RequestState {
    return this.restored ? { shown: this.restored } : selected;
  }

  /** The response the pane shows (the response keys act on it). */
  exchangeOf(selected: RequestState): Exchange | undefined {
    return this.restored ?? shownExchange(selected);
  }

  /** Draws the rows on screen. */
  draw(pane: Element, state: Omit<ResponsePaneState, 'hex' | 'width'>): void {
    const width = (pane.width as number) - 3;
    const whole = responsePaneView({ ...state, request: this.stateOf(state.request), hex: this.hex, width: width - 1 });
    const view = this.query.view(whole.label, width - 1) ?? whole;
    this.pager.setSource(view.source);
    this.pager.setViewport(width, (pane.height as number) - 2);
    if (state.request.running?.capture.streaming && this.followStream) this.pager.following = true;
    const shown = this.pager.view();
    const where = shown.line > 1 || !shown.atEnd ? `· line ${shown.line}${shown.atEnd ? ', end' : ''} ` : '';
    pane.setLabel(where && visibleLength(view.label) + where.length < width ? `${view.label}${where}` : view.label);
    pane.setContent(shown.rows.join('\n'));
  }

  /** Scrolls by `delta` rows; ±Infinity: first or last line. */
  move(delta: number): void {
    if (delta === -Infinity) this.pager.first();
    else if (delta === Infinity) this.pager.end();
    else this.pager.scroll(delta);
    this.followStream = delta === Infinity;
  }

  /** `x`: hex on or off; false when there is no body to show. */
  toggleHex(exchange: Exchange | undefined): boolean {
    if (!exchange?.capture.bytes) return false;
    this.hex = !showsHex(exchange, this.hex);
    this.pager.reset();
    return true;
  }
}
