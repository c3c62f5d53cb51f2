#!/usr/bin/env node
// Plain runs (`reqflow run FILE`, `reqflow FILE`, `send`, `test`, `--version`) skip oclif entirely: it costs
// more start-up time than the request. Everything else goes through oclif.
// CommonJS, not ESM: an ES-module entry point starts Node's module loader (~4 ms of a ~45 ms run).
'use strict';
const { appendFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
// `module.constructor` is node:module's Module: requiring node:module would also load the ESM loader.
const Module = module.constructor;
const { basename, dirname, isAbsolute, join } = require('node:path');
const { Script } = require('node:vm');

/** A file's URL, for import(): only the paths that do not use the bundle need it. */
const fileUrl = (path) => require('node:url').pathToFileURL(path).href;

function printVersion() {
  const { version } = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
  process.stdout.write(`reqflow/${version} ${process.platform}-${process.arch} node-${process.version}\n`);
  return 0;
}

/** FNV-1a of a string, 8 hex digits: names an install folder in the cache (node:crypto costs start-up). */
function shortHash(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

/**
 * Where the V8 code cache of a bundle lives: the user's cache folder, never the install folder
 * (a global install is read-only). `prefix` names the bundle, the install and the Node version
 * (several may share the folder); the rest changes with the bundle, so a stale cache is never offered.
 * Two names: `partial`, a cache written by a run that sent no request (`--list`, a usage error,
 * `--help` of a file), and `full`, written by one that did. A cache holds only the functions its
 * run compiled, so a partial one leaves a GET compiling most of its path on every run: the first
 * run that sends a request replaces it with a full one, once.
 */
function codeCacheFile(file) {
  const { homedir } = require('node:os');
  // The XDG spec: a relative XDG_CACHE_HOME is invalid and ignored (it would point into the cwd).
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache');
  const { mtimeMs, size } = statSync(file);
  const prefix = `${basename(file, '.cjs')}-${shortHash(file)}-${process.version}-`;
  const stem = `${prefix}${Math.round(mtimeMs)}-${size}`;
  return { dir: join(base, 'reqflow'), prefix, full: `${stem}.sent.v8cache`, partial: `${stem}.v8cache` };
}

/**
 * Makes the cache folder (and the base cache folder, ~/.cache, when missing) with `mode`, never
 * more: a missing home is not made. Not mkdirSync's `recursive`, which may retry forever where a
 * parent cannot be made (a HOME under /proc, Node 20): this runs at exit.
 */
function makeFolders(folders, mode) {
  for (const d of folders) {
    try {
      mkdirSync(d, { mode });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
  }
}

/** Writes the cache atomically as `name` and deletes the others of this bundle, install and Node (one per build). */
function writeCodeCache(cache, name, data) {
  makeFolders([dirname(cache.dir), cache.dir], 0o700);
  const file = join(cache.dir, name);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, data, { mode: 0o600 });
  renameSync(temp, file);
  for (const other of readdirSync(cache.dir)) {
    if (other !== name && other.startsWith(cache.prefix) && other.endsWith('.v8cache')) rmSync(join(cache.dir, other), { force: true });
  }
}

/** Did this run send a request? The fast path says so when its requests are done (src/cli/run-file.ts). */
const requestPath = { ran: false };
globalThis.__reqflowRequestPathRan = () => {
  requestPath.ran = true;
};

/**
 * Loads a CommonJS file with a V8 code cache (see codeCacheFile): compiling the bundle is most
 * of what reqflow adds to Node's own start-up, and the cache skips it (one GET: 2.03 × the time
 * of `node -e 0` with it, 2.26 × without; medians of 5 `npm run bench` runs of 20, 24 November).
 * The cache is written at exit when missing, rejected by V8, or partial while this run sent a
 * request (see codeCacheFile), atomically, in a 0700 folder; where that fails (no home,
 * read-only), reqflow simply runs without one.
 * Used for fast-run.cjs, by it for extras.cjs and send.cjs, and for tui.cjs (a cache file each).
 */
function requireWithCodeCache(file) {
  // REQFLOW_TRACE_LOAD=FILE appends the path of each bundle loaded (test/plain-path-budget.test.ts).
  if (process.env.REQFLOW_TRACE_LOAD) appendFileSync(process.env.REQFLOW_TRACE_LOAD, `${file}\n`);
  let cache;
  let cachedData;
  let full = false;
  try {
    cache = codeCacheFile(file);
    try {
      cachedData = readFileSync(join(cache.dir, cache.full));
      full = true;
    } catch {
      cachedData = readFileSync(join(cache.dir, cache.partial));
    }
  } catch {
    // No cache yet: compile, and write one at exit.
  }
  const script = new Script(Module.wrap(readFileSync(file, 'utf8')), {
    filename: file,
    cachedData,
  });
  // Code from a cache has no import() loader: the bundle imports packages through this instead,
  // and loads its extras (dist/bundle/extras.cjs) through this function, with a cache of their own.
  globalThis.__reqflowImport = (specifier) => import(specifier);
  globalThis.__reqflowLoadBundle = requireWithCodeCache;
  const module = { exports: {}, filename: file };
  script.runInThisContext().call(module.exports, module.exports, Module.createRequire(file), module, file, dirname(file));
  if (cache !== undefined && (!full || script.cachedDataRejected)) {
    // At exit, so the cache also holds the functions this run compiled.
    process.once('exit', () => {
      const missing = cachedData === undefined || script.cachedDataRejected;
      if (!missing && !requestPath.ran) return; // a partial cache, and this run would write no better one
      try {
        writeCodeCache(cache, requestPath.ran ? cache.full : cache.partial, script.createCachedData());
      } catch {
        // No writable cache folder: run without a cache.
      }
    });
  }
  return module.exports;
}

/**
 * REQFLOW_NO_BUNDLE=1 runs dist/ as is (to compare, or to debug); so does `--debug`, whose stack
 * traces then name dist/'s files and functions (the bundles' local names are minified).
 */
function useBundles() {
  return process.env.REQFLOW_NO_BUNDLE !== '1' && !process.argv.includes('--debug');
}

/**
 * `npm run build` also bundles the fast path into one CommonJS file (~25 ms less start-up
 * than loading dist/'s ES modules). A bare `tsc` rewrites dist/ but not the bundle, which is
 * then older than dist/cli/fast-run.js: the modules are used, so stale code never runs.
 */
async function loadFastPath() {
  const modules = join(__dirname, '..', 'dist', 'cli', 'fast-run.js');
  if (useBundles()) {
    let bundle;
    try {
      const path = join(__dirname, '..', 'dist', 'bundle', 'fast-run.cjs');
      if (statSync(path).mtimeMs >= statSync(modules).mtimeMs) bundle = path;
    } catch {
      // No bundle: the modules it would have been made from.
    }
    if (bundle) return requireWithCodeCache(bundle);
  }
  return import(fileUrl(modules));
}

/**
 * A bare `reqflow`: the UI, without oclif, from its own bundle (dist/bundle/tui.cjs, fresh as
 * fast-run.cjs must be), else from dist/'s modules.
 */
async function bareTui() {
  const modules = join(__dirname, '..', 'dist', 'cli', 'bare-tui.js');
  const bundle = join(__dirname, '..', 'dist', 'bundle', 'tui.cjs');
  let fresh = false;
  try {
    fresh = useBundles() && statSync(bundle).mtimeMs >= statSync(modules).mtimeMs;
  } catch {
    // No bundle: the modules it would have been made from.
  }
  return (fresh ? requireWithCodeCache(bundle) : await import(fileUrl(modules))).launchBareTui();
}

/** `reqflow __complete …`, what the shell completion scripts call on each TAB: no oclif either. */
async function complete(argv) {
  return (await import(fileUrl(join(__dirname, '..', 'dist', 'cli', 'complete.js')))).runCompletion(argv);
}

async function main() {
  const argv = process.argv.slice(2);
  // The cheapest answer of all: no module of reqflow is loaded for it.
  const code =
    argv.length === 1 && argv[0] === '--version'
      ? printVersion()
      : argv.length === 0
        ? await bareTui()
        : argv[0] === '__complete'
          ? await complete(argv.slice(1))
          : await (await loadFastPath()).tryFastPath(argv);
  if (code === undefined) {
    // oclif, with reqflow's default command (the UI) and error style: src/cli/oclif-main.ts.
    const { runOclif } = await import(fileUrl(join(__dirname, '..', 'dist', 'cli', 'oclif-main.js')));
    const failed = await runOclif(argv, __filename);
    if (failed !== undefined) process.exitCode = failed;
  } else {
    process.exitCode = code;
  }
}

main().catch((error) => {
  // The fast path and runOclif report their own errors; this is only for a broken install.
  process.stderr.write(`reqflow: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 70;
});
