/**
 * Bundles reqflow's fast start-up path — dist/cli/fast-run.js, everything it imports, and the
 * built-in plugins it loads lazily (as separate chunks, still loaded only when needed) — into
 * dist/bundle/ with esbuild. Loading a handful of files instead of ~45 modules saves ~15 ms of
 * the start-up of every `reqflow run` (see docs/readme/performance.md).
 *
 * Packages from node_modules stay external. bin/run.js uses the bundle only while it is newer
 * than dist/cli/fast-run.js, so a bare `tsc` (which rewrites dist/) never runs stale code.
 * Run by `npm run build`, after tsc.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/bundle`;
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [`${root}dist/cli/fast-run.js`],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // Every file directly in dist/bundle/: code that resolves paths from import.meta.url
  // (package.json, the oclif root) sits two levels below the root, as it does in dist/core/.
  entryNames: '[name]',
  chunkNames: '[name]-[hash]',
  logLevel: 'warning',
});
