/**
 * Bundles reqflow's fast start-up path — dist/cli/fast-run.js, everything it imports and the
 * built-in plugins it loads lazily — into one CommonJS file, dist/bundle/fast-run.cjs, with
 * esbuild. On Node 20, loading one CommonJS file is ~25 ms faster than resolving and linking
 * the ~45 ES modules of dist/ (see README "Performance"); module bodies still run only when
 * first imported, so a plain GET never evaluates the GraphQL or OAuth code.
 *
 * Packages from node_modules stay external and keep real `import()` calls (openid-client,
 * graphql-ws and others are ESM-only). bin/run.cjs uses the bundle only while it is newer than
 * dist/cli/fast-run.js, so a bare `tsc` (which rewrites dist/) never runs stale code.
 * Run by `npm run build`, after tsc.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist/bundle`, { recursive: true, force: true });
const outfile = `${root}dist/bundle/fast-run.cjs`;

/**
 * The history writer (masking, the file) runs once, when a run ends: it is bundled on its own,
 * dist/bundle/history-write.cjs, and the fast path loads that file from beside itself, so a
 * plain GET does not compile it with the rest (src/history/log.ts imports `./write.js`). It is
 * compiled with vm.Script, as bin/run.cjs loads this bundle: require() of a file would start
 * Node's ES-module loader (and fs/promises with it), ~5 ms of a run.
 */
const HISTORY_WRITER = 'history-write.cjs';
const loadApart = `
const file = require('node:path').join(__dirname, ${JSON.stringify(HISTORY_WRITER)});
const source = require('node:fs').readFileSync(file, 'utf8');
const apart = { exports: {} };
new (require('node:vm').Script)('(function (exports, require, module) {' + source + '\\n})', { filename: file }).runInThisContext()(apart.exports, require, apart);
module.exports = apart.exports;
`;
const historyWriterApart = {
  name: 'history-writer-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/write\.js$/ }, (args) => (args.importer.endsWith(`${sep}history${sep}log.js`) ? { path: HISTORY_WRITER, namespace: 'apart' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'apart' }, () => ({ contents: loadApart, loader: 'js' }));
  },
};

await build({
  entryPoints: [`${root}dist/cli/fast-run.js`],
  plugins: [historyWriterApart],
  // Two levels below the root, as in dist/core/: code that resolves package.json or the oclif
  // root from its own URL finds them at the same relative place.
  outfile,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  define: { 'import.meta.url': '__reqflowModuleUrl' },
  banner: {
    js: [
      'const __reqflowModuleUrl = require("node:url").pathToFileURL(__filename).href;',
      // bin/run.cjs runs this file from a V8 code cache, where import() has no loader: it
      // provides one (a real ESM import() resolved from the package root). Plain require() of
      // this file falls back to import().
      'const __reqflowImport = (specifier) => (globalThis.__reqflowImport ?? ((s) => import(s)))(specifier);',
    ].join('\n'),
  },
  // Less text to compile at every start; identifiers are kept so --debug stacks stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});

// Our own lazy imports are inlined by esbuild; what is left as import() is a package
// (openid-client, graphql, ws, ...). Route those through __reqflowImport (see the banner).
const bundled = readFileSync(outfile, 'utf8');
const bannerLines = 2;
const lines = bundled.split('\n');
const body = lines.slice(bannerLines).join('\n').replace(/(?<![\w$.])import\(/g, '__reqflowImport(');
writeFileSync(outfile, [...lines.slice(0, bannerLines), body].join('\n'));

await build({
  entryPoints: [`${root}dist/history/write.js`],
  outfile: `${root}dist/bundle/${HISTORY_WRITER}`,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  minifyWhitespace: true,
  minifySyntax: true,
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
  outdir: `${root}dist/bundle`,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
