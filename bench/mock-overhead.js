/**
 * What `reqflow mock` costs per request beside a bare node:http server answering the same body
 * (issue 26's goal: ≤ 1.5×). Both run as child processes on 127.0.0.1; one keep-alive client here
 * sends the same GET in rounds, the servers interleaved so drift hits them alike. Two measures:
 * wall time per request (client included), and — on Linux, from /proc — the CPU time the server
 * process spent per request, which other jobs on a busy machine disturb far less.
 *
 *   node bench/mock-overhead.js [--requests N] [--rounds N]
 *
 * Needs `npm run build` first. Bounded: N requests × rounds, every request with a time-out.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processCpuMs } from './lib/proc-cpu.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
const REQUESTS = option('--requests', 2000); // CPU ticks are 10 ms: 2,000 requests make that 5 µs a request
const ROUNDS = option('--rounds', 6);
const BODY = JSON.stringify([{ id: 1, name: 'Ada Lovelace' }, { id: 2, name: 'Alan Turing' }]);

const BARE = `
const { createServer } = require('node:http');
const body = ${JSON.stringify(BODY)};
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log('mock: listening on http://127.0.0.1:' + server.address().port + ' (bare)'));
`;

/** Starts a server child; resolves with its URL once it prints the line `mock: listening on URL`. */
function start(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no start line from ${args.join(' ')}`)), 20_000);
    child.once('error', reject);
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, pid: child.pid, stop: () => child.kill('SIGKILL') });
      }
    });
  });
}

function get(url, agent) {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, timeout: 5_000 }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('timeout', () => req.destroy(new Error('time-out')));
    req.on('error', reject);
    req.end();
  });
}

/** CPU time (user + system) of a process so far, in µs; undefined where /proc is not there. */
function cpuMicros(pid) {
  const ms = processCpuMs(pid);
  return Number.isNaN(ms) ? undefined : ms * 1000;
}

/** Wall and server-CPU microseconds per request over `REQUESTS` sequential keep-alive GETs. */
async function round(server, path) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < 100; i++) await get(server.url + path, agent); // warm-up: JIT, lazy imports
  const cpu = cpuMicros(server.pid);
  const start = process.hrtime.bigint();
  for (let i = 0; i < REQUESTS; i++) await get(server.url + path, agent);
  const wall = Number(process.hrtime.bigint() - start) / 1000 / REQUESTS;
  agent.destroy();
  const cpuAfter = cpuMicros(server.pid);
  return { wall, cpu: cpu === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpu) / REQUESTS };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const dir = mkdtempSync(join(tmpdir(), 'reqflow-mock-bench-'));
const servers = [];
try {
  writeFileSync(join(dir, 'bench.mock.yaml'), `routes:\n  - method: GET\n    path: /users\n    headers: {Content-Type: application/json}\n    body: '${BODY}'\n  - method: GET\n    path: /users/(?<id>[0-9]+)\n    pathType: regex\n    body: {id: "{{params.id}}", page: "{{request.query.page}}"}\n`);
  const bare = await start(['-e', BARE]);
  servers.push(bare);
  const mock = await start([join(ROOT, 'bin', 'run.cjs'), 'mock', join(dir, 'bench.mock.yaml'), '--port', '0', '--no-watch']);
  servers.push(mock);
  const cases = [
    { name: 'bare node:http, same body', server: bare, path: '/users', runs: [] },
    { name: 'reqflow mock, static route', server: mock, path: '/users', runs: [] },
    { name: 'reqflow mock, regex + templated', server: mock, path: '/users/42?page=3', runs: [] },
  ];
  for (let r = 0; r < ROUNDS; r++) for (const c of cases) c.runs.push(await round(c.server, c.path));
  const of = (c, key) => (c.runs.some((run) => run[key] === undefined) ? undefined : median(c.runs.map((run) => run[key])));
  const [base] = cases;
  const cell = (value, baseline) => (value === undefined ? '       n/a' : `${value.toFixed(1).padStart(7)} µs ${(value / baseline).toFixed(2).padStart(5)}×`);
  console.log(`${REQUESTS} sequential keep-alive GETs × ${ROUNDS} interleaved rounds, medians per request:`);
  console.log(`${'case'.padEnd(34)} ${'wall'.padEnd(17)} server CPU`);
  for (const c of cases) console.log(`${c.name.padEnd(34)} ${cell(of(c, 'wall'), of(base, 'wall'))} ${cell(of(c, 'cpu'), of(base, 'cpu'))}`);
  const [, staticRoute] = cases;
  const ratio = (of(staticRoute, 'cpu') ?? of(staticRoute, 'wall')) / (of(base, 'cpu') ?? of(base, 'wall'));
  console.log(`goal ≤ 1.5× for the static route (${of(base, 'cpu') === undefined ? 'wall' : 'server CPU'}): ${ratio.toFixed(2)}×, ${ratio <= 1.5 ? 'met' : 'missed'}`);
} finally {
  for (const server of servers) server.stop();
  rmSync(dir, { recursive: true, force: true });
}
