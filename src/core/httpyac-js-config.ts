/**
 * httpyac's JavaScript configuration (`.httpyac.js`, `httpyac.config.js`, … — its
 * `defaultConfigFiles`, `src/utils/configUtils.ts`): a CommonJS module whose `module.exports` is
 * the config, or a function returning it. Loading it runs it, so it is loaded only in a trusted
 * project (the caller decides: docs/trust.md). reqflow reads `environments` (as `.httpyac.json`'s)
 * and `defaultHeaders` (sent unless the request or the profile sets the header).
 */
import { createRequire } from 'node:module';
import { UsageError } from './errors/index.js';

export interface HttpyacJsConfig {
  environments?: unknown;
  defaultHeaders?: Record<string, string>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export async function loadHttpyacJsConfig(path: string): Promise<HttpyacJsConfig> {
  const require = createRequire(path);
  let config: unknown;
  try {
    delete require.cache[require.resolve(path)]; // read as it is now (the TUI loads it again)
    config = require(path) as unknown;
    if (typeof config === 'function') config = await (config as () => unknown)();
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    throw new UsageError(`${path}: httpyac's configuration failed: ${message}`, { hint: 'it is JavaScript, run as httpyac runs it (CommonJS: module.exports = { environments: { … } })' });
  }
  if (!isObject(config)) throw new UsageError(`${path}: httpyac's configuration must export an object (module.exports = { environments: { … } })`);
  const out: HttpyacJsConfig = {};
  if (config.environments !== undefined) out.environments = config.environments;
  const headers = config.defaultHeaders;
  if (headers !== undefined) {
    if (!isObject(headers) || !Object.values(headers).every((v) => typeof v === 'string' || typeof v === 'number')) throw new UsageError(`${path}: defaultHeaders must be an object of "name": "value"`);
    out.defaultHeaders = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)]));
  }
  return out;
}
