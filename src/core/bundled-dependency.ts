import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lazyBuiltin } from './lazy-builtin.js';

/**
 * Requires packages that `npm run build` bundles into one file, dist/bundle/<name>.cjs
 * (scripts/bundle-fast-path.js): resolving and reading the ~20 small modules of the proxy
 * agents one by one through node_modules costs ~13 ms more than one bundled file. Falls back to
 * `fallback` (node_modules) when there is no bundle, as when tests run from src/.
 * This file sits two levels below the package root in dist/ as the fast-path bundle does, so
 * `../bundle/` names the same folder from both.
 */
export function requireBundled<T>(name: string, fallback: string): T {
  const load = lazyBuiltin<typeof import('node:module')>('node:module').createRequire(import.meta.url);
  const bundled = fileURLToPath(new URL(`../bundle/${name}.cjs`, import.meta.url));
  return load(existsSync(bundled) ? bundled : fallback) as T;
}
