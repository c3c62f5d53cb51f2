/**
 * Callbacks run when a run's signal aborts. The signal gets a single real listener: AbortSignal
 * is an EventTarget, whose add/remove cost microseconds each, and a batch of requests would pay
 * them four times per request. One per run (see RunServices), never shared between runs.
 */
export class AbortHooks {
  private readonly hooks = new Set<() => void>();

  constructor(readonly signal: AbortSignal) {
    signal.addEventListener(
      'abort',
      () => {
        for (const hook of [...this.hooks]) hook();
        this.hooks.clear();
      },
      { once: true },
    );
  }

  /** `fn` runs when the signal aborts, until the returned function is called. */
  whenAborted(fn: () => void): () => void {
    this.hooks.add(fn);
    return () => void this.hooks.delete(fn);
  }
}
