#!/usr/bin/env node
// Plain runs (`reqflow run FILE`, `reqflow FILE`, `--version`) skip oclif entirely: it costs
// more start-up time than the request. Everything else goes through oclif.
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { Module, createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

function printVersion() {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`reqflow/${version} ${process.platform}-${process.arch} node-${process.version}\n`);
  return 0;
}

/**
 * Loads a CommonJS file with a V8 code cache beside it (`<file>.v8cache`): compiling the
 * bundle is most of what reqflow adds to Node's own start-up, and the cache skips it (~14 ms
 * of a ~60 ms run). The cache is written at exit when missing or rejected by V8 (a new Node,
 * a rebuilt bundle), atomically; where dist/ is read-only it is simply not written.
 */
function requireWithCodeCache(file) {
  const cacheFile = `${file}.v8cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // No cache yet: compile, and write one at exit.
  }
  const script = new Script(Module.wrap(readFileSync(file, 'utf8')), {
    filename: file,
    cachedData,
  });
  // Code from a cache has no import() loader: the bundle imports packages through this instead.
  globalThis.__reqflowImport = (specifier) => import(specifier);
  const module = { exports: {}, filename: file };
  script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  if (cachedData === undefined || script.cachedDataRejected) {
    // At exit, so the cache also holds the functions this run compiled.
    process.once('exit', () => {
      try {
        const temp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cacheFile);
      } catch {
        // Read-only install: run without a cache.
      }
    });
  }
  return module.exports;
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
    let bundle;
    try {
      const path = new URL('../dist/bundle/fast-run.cjs', import.meta.url).pathname;
      if (statSync(path).mtimeMs >= statSync(modules).mtimeMs) bundle = path;
    } catch {
      // No bundle: the modules it would have been made from.
    }
    if (bundle) return requireWithCodeCache(bundle);
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
