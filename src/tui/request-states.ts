import { resolve } from 'node:path';
import type { RequestSpec } from '../core/model.js';
import type { Exchange } from './exchange.js';

/**
 * A request's identity: its file and its position there (`source.index`), as the chain knows
 * it; the same for the parsed spec and the copy the pipeline's stages work on.
 */
export function requestId(spec: Pick<RequestSpec, 'source'>): string {
  const { file, index, line } = spec.source;
  return `${resolve(file)}#${index ?? `line ${line}`}`;
}

/** What the response pane shows for one request. */
export interface RequestState {
  /** The send in progress, if any. */
  running?: Exchange;
  /** The last send that finished (a cancelled send that got no response leaves the one before). */
  shown?: Exchange;
  /** The last send was cancelled before its response: `shown` is the previous one. */
  cancelledBefore?: boolean;
}

/**
 * Each request's own last exchange, by request identity: responses belong to requests, so
 * selecting a request always shows its own state (never sent, sending, response, error,
 * cancelled), whatever ran since. Several requests may run at once.
 */
export class RequestStates {
  private readonly states = new Map<string, RequestState>();
  /** Sends still running whose request is gone from its file (a reload): reachable by Esc and quitting, shown nowhere. */
  private readonly orphans = new Set<Exchange>();

  get(spec: Pick<RequestSpec, 'source'>): RequestState {
    return this.states.get(requestId(spec)) ?? {};
  }

  /** A send starts (the request's previous response stays until this one finishes). */
  begin(exchange: Exchange): void {
    const id = requestId(exchange.spec);
    this.states.set(id, { ...this.states.get(id), running: exchange });
  }

  /** A send ended: it becomes the request's state, unless it was cancelled before any response came. */
  finish(exchange: Exchange): void {
    if (this.orphans.delete(exchange)) return;
    const id = this.idOf(exchange);
    const state = this.states.get(id) ?? {};
    const running = state.running === exchange ? undefined : state.running;
    const keepPrevious = exchange.cancelled === true && exchange.capture.meta === undefined && state.shown !== undefined;
    const next: RequestState = keepPrevious ? { shown: state.shown as Exchange, cancelledBefore: true } : { shown: exchange };
    this.states.set(id, running ? { ...next, running } : next);
  }

  /** The sends in progress. */
  running(): Exchange[] {
    return [...[...this.states.values()].flatMap((state) => (state.running ? [state.running] : [])), ...this.orphans];
  }

  /**
   * The request files were read again: each state goes to its request's new id (request-moves.ts).
   * The state of a request that is gone goes with it; a send of it still running is kept apart
   * (Esc and quitting must still reach it). States of files not read again well stay.
   */
  remap({ moves, reread }: { moves: ReadonlyMap<string, string>; reread: ReadonlySet<string> }): void {
    const before = [...this.states];
    this.states.clear();
    for (const [id, state] of before) {
      const to = moves.get(id);
      if (to !== undefined) this.states.set(to, state);
      // A file not read again well (it does not parse now; a request another file's chain ran): kept as it is.
      else if (!reread.has(id.slice(0, id.lastIndexOf('#')))) this.states.set(id, state);
      else if (state.running) this.orphans.add(state.running);
    }
  }

  /** Where a running exchange's state is now (it may have moved since it began), else its request's id. */
  private idOf(exchange: Exchange): string {
    for (const [id, state] of this.states) if (state.running === exchange) return id;
    return requestId(exchange.spec);
  }
}
