/**
 * `fn` runs when `signal` aborts, until the returned function is called. A run's signal gets a
 * single real listener: AbortSignal is an EventTarget, whose add/remove cost microseconds each,
 * and a batch of requests would pay them four times per request.
 */
export function whenAborted(signal: AbortSignal | undefined, fn: () => void): () => void {
  if (!signal) return noop;
  const hooks = hooksBySignal.get(signal) ?? listenOnce(signal);
  hooks.add(fn);
  return () => void hooks.delete(fn);
}

function listenOnce(signal: AbortSignal): Set<() => void> {
  const hooks = new Set<() => void>();
  hooksBySignal.set(signal, hooks);
  signal.addEventListener('abort', () => {
    for (const hook of [...hooks]) hook();
    hooks.clear();
  }, { once: true });
  return hooks;
}

const hooksBySignal = new WeakMap<AbortSignal, Set<() => void>>();
const noop = (): void => undefined;
