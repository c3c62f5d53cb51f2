import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A Node built-in module, loaded the first time it is needed rather than at start-up: a plain
 * `http://` GET must not pay for `crypto`, `tls`, `https`, `zlib` or `child_process` (several ms
 * of the start-up budget). Synchronous, so it fits code that cannot await.
 */
export function lazyBuiltin<T>(id: `node:${string}`): T {
  return ((process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule?.(id) ?? require(id)) as T;
}
