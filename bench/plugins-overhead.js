/**
 * What looking for third-party plugins costs a plain `reqflow run` (issue 7: at most 10 % when
 * none is installed). Three ways of running the same GET against a local server, interleaved
 * so that drift in machine load hits all of them alike:
 *
 *   without check  — the same fast path, with plugin loading replaced by "none" (the baseline)
 *   with check     — `bin/run.cjs` as shipped: one file read finds no plugin, oclif stays unloaded
 *   with a plugin  — `bin/run.cjs` with plugins/auth-hmac linked: oclif's Config and the hook load
 *
 * Also times the check itself in-process. Run: `node bench/plugins-overhead.js [runs] [--json]
 * [--check]` (after `npm run build`), or call `measurePluginsOverhead()` from the bench suite.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'run.cjs');
const WITHOUT_CHECK = join(ROOT, 'bench', 'lib', 'run-without-plugin-check.js');

function startServer() {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"status":"ok"}');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = samples.reduce((sum, x) => sum + x, 0) / samples.length;
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  const sd = Math.sqrt(samples.reduce((sum, x) => sum + (x - mean) ** 2, 0) / Math.max(samples.length - 1, 1));
  return { mean: round(mean), median: round(median), sd: round(sd), min: round(sorted[0]), max: round(sorted.at(-1)) };
}

const round = (x) => Math.round(x * 100) / 100;

/** Wall time of one CLI process, spawned asynchronously (the server lives in this process). */
function timeRun(script, args, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [script, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code === 0) resolve(ms);
      else reject(new Error(`${script} ${args.join(' ')} exited ${code}: ${stderr}`));
    });
  });
}

/** Microseconds per `hasUserPlugins()` call when nothing is installed. */
async function timeCheckInProcess(dataHome) {
  const { hasUserPlugins } = await import(pathToFileURL(join(ROOT, 'dist', 'core', 'user-plugins.js')).href);
  const env = { ...process.env, XDG_DATA_HOME: dataHome, REQFLOW_DATA_DIR: '' };
  const calls = 20_000;
  for (let i = 0; i < 1000; i++) hasUserPlugins(env);
  const started = performance.now();
  for (let i = 0; i < calls; i++) hasUserPlugins(env);
  return round(((performance.now() - started) / calls) * 1000);
}

/**
 * @param {{ runs?: number, withPlugin?: boolean }} [options]
 */
export async function measurePluginsOverhead({ runs = 20, withPlugin = true } = {}) {
  const tmp = mkdtempSync(join(tmpdir(), 'reqflow-bench-plugins-'));
  const server = await startServer();
  try {
    const url = `http://127.0.0.1:${server.address().port}/health`;
    const file = join(tmp, 'get.http');
    writeFileSync(file, `GET ${url}\n`);
    // REQFLOW_NO_BUNDLE: bin/run.cjs loads the same dist/ modules as the baseline, not the fast-path bundle.
    const base = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', REQFLOW_STATE_DIR: join(tmp, 'state'), REQFLOW_NO_BUNDLE: '1' };
    const empty = { ...base, XDG_DATA_HOME: join(tmp, 'empty-data') };
    const linked = { ...base, XDG_DATA_HOME: join(tmp, 'linked-data'), XDG_CACHE_HOME: join(tmp, 'cache'), XDG_CONFIG_HOME: join(tmp, 'config') };
    const hmac = join(ROOT, 'plugins', 'auth-hmac');
    const canLink = withPlugin && existsSync(join(hmac, 'dist', 'hook.js'));
    if (canLink) {
      const link = spawnSync(process.execPath, [BIN, 'plugins', 'link', hmac, '--no-install'], { env: linked, encoding: 'utf8' });
      if (link.status !== 0) throw new Error(`linking plugins/auth-hmac failed: ${link.stderr}`);
    }
    const variants = {
      withoutCheck: { script: WITHOUT_CHECK, env: empty, samples: [] },
      withCheck: { script: BIN, env: empty, samples: [] },
      ...(canLink ? { withPlugin: { script: BIN, env: linked, samples: [] } } : {}),
    };
    // One warm-up run each (disk cache), then interleaved measured runs.
    for (const v of Object.values(variants)) await timeRun(v.script, ['run', file], v.env);
    for (let i = 0; i < runs; i++) for (const v of Object.values(variants)) v.samples.push(await timeRun(v.script, ['run', file], v.env));
    const result = Object.fromEntries(Object.entries(variants).map(([name, v]) => [name, stats(v.samples)]));
    result.runs = runs;
    // Medians: one slow outlier on a busy machine moves a mean by more than the check costs.
    result.overheadPercent = round(((result.withCheck.median - result.withoutCheck.median) / result.withoutCheck.median) * 100);
    result.meanOverheadPercent = round(((result.withCheck.mean - result.withoutCheck.mean) / result.withoutCheck.mean) * 100);
    // Fastest runs: the least disturbed by other processes, so the steadiest estimate of a fixed cost.
    result.minOverheadPercent = round(((result.withCheck.min - result.withoutCheck.min) / result.withoutCheck.min) * 100);
    result.checkMicroseconds = await timeCheckInProcess(join(tmp, 'empty-data'));
    if (!canLink) result.note = 'plugins/auth-hmac is not built (tsc -p plugins/auth-hmac): "with a plugin" skipped';
    return result;
  } finally {
    server.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

function report(r) {
  const row = (label, s) => `  ${label.padEnd(16)} mean ${String(s.mean).padStart(7)} ms  median ${String(s.median).padStart(7)} ms  sd ${String(s.sd).padStart(6)} ms`;
  const lines = [`plugin collection overhead (${r.runs} runs each, interleaved):`, row('without check', r.withoutCheck), row('with check', r.withCheck)];
  if (r.withPlugin) lines.push(row('with a plugin', r.withPlugin));
  lines.push(`  overhead with no plugin installed: ${r.overheadPercent} % of the median run (means: ${r.meanOverheadPercent} %, fastest runs: ${r.minOverheadPercent} %; limit 10 %)`);
  lines.push(`  the check itself (one file read, in-process): ${r.checkMicroseconds} µs = ${round((r.checkMicroseconds / 1000 / r.withoutCheck.median) * 100)} % of a run`);
  if (r.withPlugin) lines.push(`  with a plugin linked, oclif's Config and the hook add ${round(r.withPlugin.median - r.withoutCheck.median)} ms (median)`);
  if (r.note) lines.push(`  note: ${r.note}`);
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const runs = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 20);
  const result = await measurePluginsOverhead({ runs });
  console.log(report(result));
  if (process.argv.includes('--json')) console.log(JSON.stringify(result));
  // `--check` makes it a gate (exit 1 above 10 %); timing on a shared machine is noisy, so not by default.
  if (process.argv.includes('--check') && result.overheadPercent > 10) process.exitCode = 1;
}

export { report as formatPluginsOverhead };
