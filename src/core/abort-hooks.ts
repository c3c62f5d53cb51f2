/**
 * `fn` runs when `signal` aborts, until the returned function is called. A run's signal gets a
 * single real listener: AbortSignal is an EventTarget, whose add/remove cost microseconds each,
 * and a batch of requests would pay them four times per request.
 */
export function whenAborted(signal: AbortSignal | undefined, fn: () => void): () => void {
  if (!signal) return noop;
  let hooks = hooksBySignal.get(signal);
  if (!hooks) {
    const created = new Set<() => void>();
    hooks = created;
    hooksBySignal.set(signal, created);
    signal.addEventListener('abort', () => {
      for (const hook of [...created]) hook();
      created.clear();
    }, { once: true });
  }
  const set = hooks;
  set.add(fn);
  return () => void set.delete(fn);
}

const hooksBySignal = new WeakMap<AbortSignal, Set<() => void>>();
const noop = (): void => undefined;
