#!/usr/bin/env node
// Plain runs (`reqflow run FILE`, `reqflow FILE`, `--version`) skip oclif entirely: it costs
// more start-up time than the request. Everything else goes through oclif.
import { tryFastPath } from '../dist/cli/fast-run.js';

const code = await tryFastPath(process.argv.slice(2));
if (code === undefined) {
  const { execute } = await import('@oclif/core');
  await execute({ dir: import.meta.url });
} else {
  process.exitCode = code;
}
