import { lazyBuiltin } from './lazy-builtin.js';

export type JMESPath = typeof import('@jmespath-community/jmespath');

/**
 * Loaded on first use (Node caches it): runs without a filter never load it. Its CommonJS build
 * through require: import() would start Node's ES-module loader for it (~3 ms more).
 */
export async function loadJmesPath(): Promise<JMESPath> {
  return lazyBuiltin<typeof import('node:module')>('node:module').createRequire(import.meta.url)('@jmespath-community/jmespath') as JMESPath;
}
