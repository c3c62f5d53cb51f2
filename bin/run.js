#!/usr/bin/env node
// Plain runs (`reqflow run FILE`, `reqflow FILE`, `--version`) skip oclif entirely: it costs
// more start-up time than the request. Everything else goes through oclif.
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';

function printVersion() {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`reqflow/${version} ${process.platform}-${process.arch} node-${process.version}\n`);
  return 0;
}

/**
 * `npm run build` also bundles the fast path into one CommonJS file (~25 ms less start-up
 * than loading dist/'s ES modules). A bare `tsc` rewrites dist/ but not the bundle, which is
 * then older than dist/cli/fast-run.js: the modules are used, so stale code never runs.
 */
async function loadFastPath() {
  const modules = new URL('../dist/cli/fast-run.js', import.meta.url);
  if (process.env.REQFLOW_NO_BUNDLE !== '1') {
    // REQFLOW_NO_BUNDLE=1 runs dist/ as is (to compare, or to debug).
    try {
      const bundle = new URL('../dist/bundle/fast-run.cjs', import.meta.url);
      if (statSync(bundle).mtimeMs >= statSync(modules).mtimeMs) return createRequire(import.meta.url)(bundle.pathname);
    } catch {
      // No bundle: the modules it would have been made from.
    }
  }
  return import(modules.href);
}

const argv = process.argv.slice(2);
// The cheapest answer of all: no module of reqflow is loaded for it.
const code =
  argv.length === 1 && argv[0] === '--version'
    ? printVersion()
    : await (await loadFastPath()).tryFastPath(argv);
if (code === undefined) {
  const { execute } = await import('@oclif/core');
  // oclif 4 shows help for a bare command line; reqflow opens its default command (the UI).
  await execute({ dir: import.meta.url, args: argv.length === 0 ? ['tui'] : argv });
} else {
  process.exitCode = code;
}
