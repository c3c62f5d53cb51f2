/**
 * Bundles reqflow's fast start-up path with esbuild into four CommonJS files (see
 * docs/architecture.md, "The build"):
 *
 * - dist/bundle/fast-run.cjs, the plain path: the modules a plain GET evaluates — the static
 *   imports of dist/cli/fast-run.js and of the few lazily imported modules every plain run
 *   loads (PLAIN_PATH). Everything start-up reads, so it is kept small
 *   (test/plain-path-budget.test.ts holds its size).
 * - dist/bundle/send.cjs, `reqflow send`'s own modules (SEND_ENTRY below).
 * - dist/bundle/extras.cjs, everything else our lazy `import()`s reach (GraphQL, OAuth, the
 *   other formats and reporters, …), read only when a run first imports one of them.
 * - dist/bundle/tui.cjs, a bare `reqflow` (the UI): everything it reaches, on its own (TUI_ENTRY).
 *
 * Every module is in exactly one of the first three, so its classes and registries exist once. A lazy
 * `import('./x.js')` in the plain path whose target is in extras becomes `__reqflowExtras('x.js')`,
 * which loads extras.cjs once and returns that module's namespace; the extras bundle reaches the
 * plain path's modules through the `__reqflowCoreModules` the plain path exports (virtual modules
 * below), never through a copy. Module bodies still run only when first imported.
 *
 * Packages from node_modules stay external and keep real `import()` calls (openid-client,
 * graphql-ws and others are ESM-only). bin/run.cjs uses the bundles only while fast-run.cjs is
 * newer than dist/cli/fast-run.js, so a bare `tsc` (which rewrites dist/) never runs stale code;
 * extras.cjs is written first, so a fresh fast-run.cjs always has its extras beside it.
 * Run by `npm run build`, after tsc.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'acorn';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist/`;
const outdir = `${root}dist/bundle`;

/**
 * The modules a plain GET (`reqflow run FILE.http`, http://, pretty output) imports lazily: with
 * their static imports, they and fast-run.js make the plain path. A module added here (or
 * statically imported by one of them) is start-up cost for every run: the budget test says so.
 * `reqflow send` is here too (its arguments made a one-request file): it must start as fast as
 * `run` (issue 24), which reading extras.cjs would not allow.
 */
const PLAIN_PATH = ['cli/fast-run.js', 'cli/run-file.js', 'pipeline/installed-plugins.js', 'report/pretty.js', 'report/raw.js', 'plugins/format-http/index.js'];
const EXTRAS_PREFIX = 'reqflow-extras:';

/**
 * `reqflow send`'s own modules (its arguments made a one-request file) are a bundle of their
 * own, dist/bundle/send.cjs: `send` must start as fast as `run` (issue 24) without every `run`
 * reading them. It shares the plain path's modules as extras.cjs does (virtual modules), and
 * its own modules are in no other bundle.
 */
const SEND_ENTRY = 'cli/send-request.js';
/** A bare `reqflow`'s entry and bundle (bin/run.cjs loads it for no arguments). */
const TUI_ENTRY = 'cli/bare-tui.js';
const TUI_BUNDLE = 'tui.cjs';
const SEND_BUNDLE = 'send.cjs';
const SEND_PREFIX = 'reqflow-send:';

/**
 * The history writer (masking, the file) runs once, when a run ends: it is bundled on its own,
 * dist/bundle/history-write.cjs, and the fast path loads that file from beside itself, so a
 * plain GET does not compile it with the rest (src/history/log.ts imports `./write.js` when a run ends; neither the plain path nor extras.cjs carries it). It is
 * loaded through bin/run.cjs's code-cache loader, as the other bundles are (compiled afresh on
 * every run, its functions were ~1 ms of a GET), else compiled with vm.Script: require() of a
 * file would start Node's ES-module loader (and fs/promises with it), ~5 ms of a run.
 */
const HISTORY_WRITER = 'history-write.cjs';
const HISTORY_MODULE = 'history/write.js';
const loadApart = `
const file = require('node:path').join(__dirname, ${JSON.stringify(HISTORY_WRITER)});
if (globalThis.__reqflowLoadBundle) {
  module.exports = globalThis.__reqflowLoadBundle(file);
} else {
  const source = require('node:fs').readFileSync(file, 'utf8');
  const apart = { exports: {} };
  new (require('node:vm').Script)('(function (exports, require, module) {' + source + '\\n})', { filename: file }).runInThisContext()(apart.exports, require, apart);
  module.exports = apart.exports;
}
`;

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // A getter (banner below): most runs never ask, and pathToFileURL is ~0.5 ms at start-up.
  define: { 'import.meta.url': '__reqflowMeta.url' },
  // Less text to read and compile at every start (local names too: −31 % of fast-run.cjs).
  // Stacks stay readable: a run with --debug runs dist/'s modules, not the bundles (bin/run.cjs).
  minifyWhitespace: true,
  minifySyntax: true,
  minifyIdentifiers: true,
  logLevel: 'warning',
  write: false,
  metafile: true,
};

const banner = [
  'let __reqflowModuleUrl;',
  'const __reqflowMeta = { get url() { return (__reqflowModuleUrl ??= require("node:url").pathToFileURL(__filename).href); } };',
  // bin/run.cjs runs this file from a V8 code cache, where import() has no loader: it provides
  // one (a real ESM import() resolved from the package root). Plain require() of this file
  // falls back to import().
  'const __reqflowImport = (specifier) => (globalThis.__reqflowImport ?? ((s) => import(s)))(specifier);',
];

/** A dist/ module's name as the bundles' tables know it ('core/registry.js'). */
const moduleName = (path) => relative(dist, resolve(root, path)).replaceAll('\\', '/');

// 1. The module graph, from one analysis build of everything fast-run.js reaches.
const analysis = await build({ ...common, entryPoints: [`${dist}cli/fast-run.js`], outfile: `${outdir}/analysis.cjs`, minifyWhitespace: false, minifySyntax: false });
const graph = new Map(Object.entries(analysis.metafile.inputs).map(([path, input]) => [moduleName(path), input.imports.filter((i) => !i.external).map((i) => ({ kind: i.kind, name: moduleName(i.path) }))]));
const core = new Set();
const addStatic = (name) => {
  if (core.has(name)) return;
  if (!graph.has(name)) throw new Error(`bundle-fast-path: ${name} (PLAIN_PATH) is not reached from cli/fast-run.js`);
  core.add(name);
  for (const i of graph.get(name)) if (i.kind !== 'dynamic-import') addStatic(i.name);
};
PLAIN_PATH.forEach(addStatic);
// What the plain path imports lazily from extras, and what extras import from the plain path.
const extrasEntries = new Set();
const coreForExtras = new Set();
for (const [name, imports] of graph) {
  for (const i of imports) {
    if (core.has(name) && !core.has(i.name) && i.name !== HISTORY_MODULE && i.name !== SEND_ENTRY) extrasEntries.add(i.name);
    if (!core.has(name) && core.has(i.name)) coreForExtras.add(i.name);
  }
}

/** The names a plain-path module exports, so that extras can import them from the plain path's copy. */
function exportNames(name) {
  const ast = parse(readFileSync(`${dist}${name}`, 'utf8'), { ecmaVersion: 'latest', sourceType: 'module' });
  const names = [];
  for (const node of ast.body) {
    if (node.type === 'ExportDefaultDeclaration') names.push('default');
    if (node.type === 'ExportAllDeclaration') throw new Error(`bundle-fast-path: ${name} has \`export *\`; list its exports (extras import it from the plain path)`);
    if (node.type !== 'ExportNamedDeclaration') continue;
    for (const s of node.specifiers) names.push(s.exported.name ?? s.exported.value);
    const d = node.declaration;
    if (d?.declarations) {
      for (const v of d.declarations) {
        if (v.id.type !== 'Identifier') throw new Error(`bundle-fast-path: ${name}: destructured export`);
        names.push(v.id.name);
      }
    } else if (d) names.push(d.id.name);
  }
  return names;
}

/** Resolves our own relative imports: `onDist(name, args)` decides what becomes of each dist/ module. */
const splitPlugin = (onDist, setup = () => {}) => ({
  name: 'reqflow-split',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => (args.namespace === 'file' || args.namespace === '' ? onDist(moduleName(resolve(args.resolveDir, args.path)), args) : undefined));
    setup(b);
  },
});

/** A plain-path module as another bundle sees it: a re-export of the plain path's own instance. */
const virtualCore = (b) =>
  b.onLoad({ filter: /.*/, namespace: 'reqflow-core' }, ({ path }) => {
    const names = exportNames(path);
    const lines = [`const m = __reqflowCoreModules[${JSON.stringify(path)}]();`];
    for (const n of names) lines.push(n === 'default' ? 'export default m.default;' : `export const ${n} = m.${n};`);
    return { contents: lines.join('\n'), loader: 'js' };
  });

// 2. extras.cjs first (see the header). Its imports of plain-path modules become virtual
// modules that re-export the plain path's own instance.
const extras = await build({
  ...common,
  stdin: {
    contents: [
      `const modules = {${[...extrasEntries].map((name) => `${JSON.stringify(name)}: () => import(${JSON.stringify(`./${name}`)})`).join(', ')}};`,
      // fast-run.cjs calls this once, when it first needs an extras module.
      'export function connect(coreModules) { __reqflowCoreModules = coreModules; return modules; }',
    ].join('\n'),
    resolveDir: dist,
    sourcefile: 'extras-entry.js',
  },
  outfile: `${outdir}/extras.cjs`,
  banner: { js: [...banner, 'let __reqflowCoreModules;'].join('\n') },
  plugins: [splitPlugin((name) => (core.has(name) ? { path: name, namespace: 'reqflow-core' } : undefined), (b) => virtualCore(b))],
});

// 2b. send.cjs: `reqflow send`'s modules, the plain path's through the same virtual modules.
const send = await build({
  ...common,
  stdin: {
    // fast-run.cjs calls this once, for `reqflow send`: the namespace of send-request.js.
    contents: `export function connect(coreModules) { __reqflowCoreModules = coreModules; return import(${JSON.stringify(`./${SEND_ENTRY}`)}); }`,
    resolveDir: dist,
    sourcefile: 'send-entry.js',
  },
  outfile: `${outdir}/${SEND_BUNDLE}`,
  banner: { js: [...banner, 'let __reqflowCoreModules;'].join('\n') },
  plugins: [splitPlugin((name) => (core.has(name) ? { path: name, namespace: 'reqflow-core' } : undefined), virtualCore)],
});

// 3. fast-run.cjs: the plain path; lazy imports of anything else go to extras.cjs.
const fastRun = await build({
  ...common,
  stdin: {
    contents: [
      `export * from './cli/fast-run.js';`,
      // require(), not import: a module's body still runs only when first needed.
      `export const __reqflowCoreModules = {${[...coreForExtras].map((name) => `${JSON.stringify(name)}: () => require(${JSON.stringify(`./${name}`)})`).join(', ')}};`,
    ].join('\n'),
    resolveDir: dist,
    sourcefile: 'fast-run-entry.js',
  },
  outfile: `${outdir}/fast-run.cjs`,
  banner: {
    js: [
      ...banner,
      // The extras bundle, loaded once, through bin/run.cjs's code-cache loader when there is one.
      'let __reqflowExtrasModules;',
      'const __reqflowExtras = (name) => Promise.resolve().then(() => (__reqflowExtrasModules ??= (globalThis.__reqflowLoadBundle ?? require)(require("node:path").join(__dirname, "extras.cjs")).connect(module.exports.__reqflowCoreModules))[name]());',
      // `reqflow send`'s bundle, the same way.
      `const __reqflowSend = () => Promise.resolve().then(() => (globalThis.__reqflowLoadBundle ?? require)(require("node:path").join(__dirname, ${JSON.stringify(SEND_BUNDLE)})).connect(module.exports.__reqflowCoreModules));`,
    ].join('\n'),
  },
  plugins: [
    splitPlugin(
      (name, args) =>
        name === HISTORY_MODULE
          ? { path: HISTORY_WRITER, namespace: 'apart' }
          : name === SEND_ENTRY
            ? { path: `${SEND_PREFIX}${name}`, external: true }
            : args.kind === 'dynamic-import' && !core.has(name)
              ? { path: `${EXTRAS_PREFIX}${name}`, external: true }
              : undefined,
      (b) => b.onLoad({ filter: /.*/, namespace: 'apart' }, () => ({ contents: loadApart, loader: 'js' })),
    ),
  ],
});

// 3b. tui.cjs: a bare `reqflow` (the UI) in one bundle of its own, sharing nothing with the
// plain path: no process loads both, and sharing would put export tables for the UI's modules
// into fast-run.cjs, which every plain GET reads (test/plain-path-budget.test.ts).
const tui = await build({ ...common, entryPoints: [`${dist}${TUI_ENTRY}`], outfile: `${outdir}/${TUI_BUNDLE}`, banner: { js: banner.join('\n') } });

// Never one module in both: its classes (instanceof) and registries would exist twice.
const inputsOf = (result) => Object.values(result.metafile.outputs).flatMap((o) => Object.keys(o.inputs)).filter((p) => !p.includes(':'));
const extrasInputs = new Set(inputsOf(extras));
const sendInputs = new Set(inputsOf(send));
const twice = [...inputsOf(fastRun).filter((p) => extrasInputs.has(p) || sendInputs.has(p)), ...[...sendInputs].filter((p) => extrasInputs.has(p))];
if (twice.length > 0) throw new Error(`bundle-fast-path: modules in both bundles: ${twice.join(', ')}`);

/**
 * Our own lazy imports are inlined by esbuild (or go to extras.cjs); what is left as import()
 * is a package (openid-client, graphql, ws, ...): route those through __reqflowImport (see the banner).
 */
function finish(result, bannerLines) {
  const [{ path, text }] = result.outputFiles;
  const lines = text.split('\n');
  const body = lines
    .slice(bannerLines)
    .join('\n')
    .replace(/(?<![\w$.])import\("reqflow-extras:/g, '__reqflowExtras("')
    .replace(/(?<![\w$.])import\("reqflow-send:[^"]*"\)/g, '__reqflowSend()')
    .replace(/(?<![\w$.])import\(/g, '__reqflowImport(');
  writeFileSync(path, [...lines.slice(0, bannerLines), body].join('\n'));
}
// REQFLOW_BUNDLE_REPORT=1 npm run build: what weighs most in the plain path (docs/performance.md).
if (process.env.REQFLOW_BUNDLE_REPORT === '1') {
  const weights = Object.values(fastRun.metafile.outputs).flatMap((o) => Object.entries(o.inputs));
  weights.sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput);
  for (const [path, { bytesInOutput }] of weights.slice(0, Number(process.env.REQFLOW_BUNDLE_REPORT_TOP ?? 40))) console.log(`${String(bytesInOutput).padStart(7)}  ${moduleName(path)}`);
}
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
finish(extras, banner.length + 1);
finish(send, banner.length + 1);
finish(fastRun, banner.length + 3);
finish(tui, banner.length);

await build({
  entryPoints: [`${root}dist/history/write.js`],
  outfile: `${outdir}/${HISTORY_WRITER}`,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // CommonJS has no import.meta: the modules here that could ask for it use `require` in a bundle (core/file-lock.ts).
  define: { 'import.meta.url': 'undefined' },
  minifyWhitespace: true,
  minifySyntax: true,
  minifyIdentifiers: true,
  logLevel: 'warning',
});

// The proxy agents (http-proxy-agent and https-proxy-agent; socks-proxy-agent and the socks
// client, four times their size, apart) and what they use, loaded only by a run that uses a
// proxy: one file instead of ~20 resolved through node_modules is ~13 ms less for that run
// (src/core/bundled-dependency.ts).
// The cookie jar (tough-cookie and its public-suffix list), loaded by a run whose session holds
// a cookie for the host: its CommonJS build in one file is ~15 ms, its ES modules through
// import() ~45 ms (src/core/http/cookie-jar.ts).
await build({
  entryPoints: { 'proxy-agents': `${root}scripts/proxy-agents.cjs`, socks: `${root}scripts/socks.cjs`, 'tough-cookie': createRequire(import.meta.url).resolve('tough-cookie') },
  outdir,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
