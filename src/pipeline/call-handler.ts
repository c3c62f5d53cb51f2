import { PluginError, internalError, isReqflowError } from '../core/errors/index.js';
import type { PluginEntry } from '../core/registry.js';

/** A `ReqflowError` passes as it is; anything else a built-in throws is a bug (exit 70); a third party's names the plugin. */
function asReported(entry: PluginEntry, step: string, error: unknown): unknown {
  if (isReqflowError(error)) return error;
  if (entry.builtin) return internalError(error, `in ${entry.name} (${step} stage)`);
  return new PluginError(entry.name, step, error);
}

/**
 * Runs one plugin handler. A synchronous handler's result comes back as it is (no promise):
 * a batch of requests pays for every await, per handler, per request.
 */
export function callHandler<C, T>(entry: PluginEntry, step: string, handler: (ctx: C) => T | Promise<T>, ctx: C): T | Promise<T> {
  try {
    const result = handler(ctx);
    return result instanceof Promise ? result.catch((error: unknown) => Promise.reject(asReported(entry, step, error))) : result;
  } catch (error) {
    throw asReported(entry, step, error);
  }
}
