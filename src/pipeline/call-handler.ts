import { PluginError, internalError, isReqflowError } from '../core/errors/index.js';
import type { PluginEntry } from '../core/registry.js';

/**
 * Runs one plugin handler. A `ReqflowError` passes as it is; anything else a built-in throws is
 * a bug of reqflow (exit 70), and what a third-party plugin throws names the plugin and stage.
 */
export async function callHandler<T>(entry: PluginEntry, step: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isReqflowError(error)) throw error;
    if (entry.builtin) throw internalError(error, `in ${entry.name} (${step} stage)`);
    throw new PluginError(entry.name, step, error);
  }
}
