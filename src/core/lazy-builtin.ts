/**
 * A Node built-in module, loaded the first time it is needed rather than at start-up: a plain
 * `http://` GET must not pay for `crypto`, `tls`, `https`, `zlib` or `child_process` (several ms
 * of the start-up budget). Synchronous, so it fits code that cannot await.
 * `process.getBuiltinModule` (Node ≥ 20.16), not `createRequire`: importing `node:module` loads
 * Node's ES-module loader too, ~1 ms of every run.
 */
export function lazyBuiltin<T>(id: `node:${string}`): T {
  return (process as unknown as { getBuiltinModule(id: string): unknown }).getBuiltinModule(id) as T;
}
