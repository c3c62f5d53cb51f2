#!/usr/bin/env node
// Plain runs (`reqflow run FILE`, `reqflow FILE`, `--version`) skip oclif entirely: it costs
// more start-up time than the request. Everything else goes through oclif.
import { statSync } from 'node:fs';

/**
 * `npm run build` also bundles the fast path into dist/bundle/ (a few files instead of ~45
 * modules: ~15 ms less start-up). A bare `tsc` rewrites dist/ but not the bundle, which is
 * then older than dist/cli/fast-run.js: the modules are used, so stale code never runs.
 */
function fastPathModule() {
  const modules = new URL('../dist/cli/fast-run.js', import.meta.url);
  if (process.env.REQFLOW_NO_BUNDLE === '1') return modules.href; // to compare, or to debug dist/ as is
  try {
    const bundle = new URL('../dist/bundle/fast-run.js', import.meta.url);
    if (statSync(bundle).mtimeMs >= statSync(modules).mtimeMs) return bundle.href;
  } catch {
    // No bundle: the modules it would have been made from.
  }
  return modules.href;
}

const { tryFastPath } = await import(fastPathModule());

const argv = process.argv.slice(2);
const code = await tryFastPath(argv);
if (code === undefined) {
  const { execute } = await import('@oclif/core');
  // oclif 4 shows help for a bare command line; reqflow opens its default command (the UI).
  await execute({ dir: import.meta.url, args: argv.length === 0 ? ['tui'] : argv });
} else {
  process.exitCode = code;
}
