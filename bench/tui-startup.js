/**
 * The TUI's start-up beside the CLI's: `reqflow` (no arguments) in a pseudo-terminal until its
 * first screen is drawn — the request tree and the status bar in the output — against
 * `reqflow run` of one GET in the same pseudo-terminal until it exits, and `node -e 0` there
 * (the floor: the pty and Node). The runs alternate, so that a busy machine weighs on all three
 * alike. The pty is util-linux `script` (as test/stdin.test.ts uses it). Prints one JSON line.
 *
 *   node bench/tui-startup.js [runs]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/run.cjs', import.meta.url));
const RUNS = Number(process.argv[2] ?? 10);
const TIMEOUT_MS = 30_000;

if (spawnSync('script', ['--version']).status !== 0) {
  console.error('bench/tui-startup.js needs `script` (util-linux: apt-get install bsdutils)');
  process.exit(2);
}

const server = createServer((_req, res) => res.end('{"ok":true}'));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const dir = mkdtempSync(join(tmpdir(), 'reqflow-bench-tui-start-'));
writeFileSync(join(dir, 'one.http'), `### one\nGET http://127.0.0.1:${server.address().port}/get\n`);
const env = { PATH: process.env.PATH, HOME: dir, TERM: 'xterm-256color', LANG: 'C.UTF-8', REQFLOW_STATE_DIR: join(dir, 'state') };

/**
 * Milliseconds from spawn to `drawn(output)` (then the process group is killed), or to the exit
 * when `drawn` is undefined. The pty is 100×30 (a pty made without a terminal has no size).
 */
function timed(command, drawn) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn('script', ['-qfec', `stty cols 100 rows 30; exec ${command}`, '/dev/null'], { cwd: dir, env, detached: true, stdio: ['pipe', 'pipe', 'ignore'] });
    let output = '';
    let done = false;
    const finish = (error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const ms = performance.now() - start;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      if (error) reject(error);
      else resolve(ms);
    };
    const timer = setTimeout(() => finish(new Error(`${command}: no first screen within ${TIMEOUT_MS} ms:\n${output.slice(-400)}`)), TIMEOUT_MS);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (drawn?.(output)) finish();
    });
    child.once('exit', (code) => (drawn ? finish(new Error(`${command} exited (${code}) before its first screen:\n${output.slice(-400)}`)) : finish(code === 0 ? undefined : new Error(`${command} exited with ${code}`))));
  });
}

// The first frame: the tree (the file's name), the status bar (the profile and the token state, `? help`).
const firstScreen = (output) => output.includes('one.http') && output.includes('token:') && output.includes('help');
const node = process.execPath;
const cases = {
  'node -e 0': () => timed(`${node} -e 0`),
  'reqflow run (one GET)': () => timed(`${node} ${BIN} run one.http`),
  'reqflow (TUI) to its first screen': () => timed(`${node} ${BIN}`, firstScreen),
};
const times = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
try {
  for (const run of Object.values(cases)) await run(); // warm-up: code caches, disk cache
  for (let round = 0; round < RUNS; round++) for (const [name, run] of Object.entries(cases)) times[name].push(await run());
} finally {
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const result = Object.fromEntries(Object.entries(times).map(([name, values]) => [name, { median: median(values), min: Math.min(...values) }]));
console.log(JSON.stringify({ runs: RUNS, cases: result, ratio: result['reqflow (TUI) to its first screen'].median / result['reqflow run (one GET)'].median }));
