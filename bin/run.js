#!/usr/bin/env node
// Plain runs (`reqflow run FILE`, `reqflow FILE`, `--version`) skip oclif entirely: it costs
// more start-up time than the request. Everything else goes through oclif.
import { tryFastPath } from '../dist/cli/fast-run.js';

const argv = process.argv.slice(2);
const code = await tryFastPath(argv);
if (code === undefined) {
  const { execute } = await import('@oclif/core');
  // oclif 4 shows help for a bare command line; reqflow opens its default command (the UI).
  await execute({ dir: import.meta.url, args: argv.length === 0 ? ['tui'] : argv });
} else {
  process.exitCode = code;
}
