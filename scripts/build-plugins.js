/**
 * Builds the example plugin packages (plugins/<name>, each with its own tsconfig.json, as its
 * own `npm run build` would), so that `reqflow plugins link plugins/<name>` works from a clean
 * checkout. Run by `npm run build`, after reqflow's own tsc: the plugins take reqflow's types
 * from dist/*.d.ts.
 *
 * A plugin is compiled only when something it is compiled from changed since its last build:
 * its package.json, tsconfig.json and src/, the text of reqflow's declaration files (not their
 * time: tsc rewrites them at every build), or the versions of TypeScript and @types/node. The
 * fingerprints live in node_modules/.cache/reqflow/, never in the packages. Otherwise
 * `npm run build` (which `npm test` and `npm run bench` run first) would type-check both
 * plugins every time, ~45 % more build time. Plugins that need compiling compile in parallel.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cacheDir = join(root, 'node_modules', '.cache', 'reqflow');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** Every file under `dir` whose name passes `keep`, relative to `base`, sorted; [] when `dir` is missing. */
function files(dir, keep = () => true, base = dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const found = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...files(path, keep, base));
    else if (keep(entry.name)) found.push(relative(base, path));
  }
  return found.sort();
}

function versionOf(name) {
  return JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
}

// What every plugin is compiled against: reqflow's public types and the compiler.
const shared = createHash('sha256');
shared.update(`typescript ${versionOf('typescript')}\n@types/node ${versionOf('@types/node')}\n`);
for (const file of files(join(root, 'dist'), (name) => name.endsWith('.d.ts'))) {
  shared.update(`${file}\n`).update(readFileSync(join(root, 'dist', file))).update('\n');
}
const sharedDigest = shared.digest('hex');

function fingerprint(dir) {
  const hash = createHash('sha256').update(sharedDigest);
  for (const file of ['package.json', 'tsconfig.json', ...files(join(dir, 'src')).map((file) => join('src', file))]) {
    hash.update(`${file}\n`).update(readFileSync(join(dir, file))).update('\n');
  }
  return hash.digest('hex');
}

/** The plugin's dist/ as file name -> size: a deleted or edited output means a new build. */
function outputs(dir) {
  return Object.fromEntries(files(join(dir, 'dist')).map((file) => [file, statSync(join(dir, 'dist', file)).size]));
}

function readStamp(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function writeStamp(file, stamp) {
  mkdirSync(cacheDir, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(stamp)}\n`);
  renameSync(temp, file);
}

function compile(dir) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ ok: false, output: String(error) }));
    child.on('close', (code) => resolve({ ok: code === 0, output }));
  });
}

async function buildPlugin(name) {
  const dir = join(root, 'plugins', name);
  const stampFile = join(cacheDir, `plugin-${name}.json`);
  const print = fingerprint(dir);
  const stamp = readStamp(stampFile);
  const built = outputs(dir);
  if (stamp?.fingerprint === print && Object.keys(built).length > 0 && JSON.stringify(stamp.outputs) === JSON.stringify(built)) {
    // Up to date. Its files are made newer than the dist/ reqflow just wrote, as a compile would
    // have made them (test/helpers/plugins.ts compiles a plugin older than dist/index.d.ts).
    const now = new Date();
    for (const file of Object.keys(built)) utimesSync(join(dir, 'dist', file), now, now);
    return true;
  }
  rmSync(stampFile, { force: true }); // a failed build is never taken for a good one
  const { ok, output } = await compile(dir);
  if (!ok) {
    process.stderr.write(`plugins/${name}: tsc failed\n${output}`);
    return false;
  }
  writeStamp(stampFile, { fingerprint: print, outputs: outputs(dir) });
  return true;
}

const names = readdirSync(join(root, 'plugins'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(root, 'plugins', entry.name, 'tsconfig.json')))
  .map((entry) => entry.name)
  .sort();
const results = await Promise.all(names.map(buildPlugin));
if (results.includes(false)) process.exitCode = 1;
