/**
 * Issue 26's end-to-end checks of the load tools against real processes:
 * - a stress run of 10,000 requests against a server that answers after 20 ms: the count and
 *   the status codes equal the server's own log, and the percentiles agree with the latencies
 *   the server saw (never below them; above them only by what the client adds — a generous
 *   bound, the machine may be busy);
 * - the k6 script of `--as k6`, evaluated as an ES module (k6's `http` and `check` given by the
 *   test: k6 itself is not on npm), sends the same request reqflow sends, and its checks judge
 *   real responses as reqflow's `??` lines do.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { SourceTextModule, SyntheticModule, createContext, type Module } from 'node:vm';
import { runCli, tempDir } from './helpers/cli.js';

interface Logged {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
  ms: number;
}

const LATENCY_MS = 20;
let server: Server;
let base: string;
const log: Logged[] = [];
const files = tempDir('reqflow-stress-log-');
const env = { REQFLOW_STATE_DIR: `${files.dir}/state` };

beforeAll(async () => {
  let seq = 0;
  server = createServer((req, res) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      // Every tenth request is a 503; /fail always a 500 (for the k6 checks).
      const status = req.url?.startsWith('/fail') ? 500 : ++seq % 10 === 0 ? 503 : 200;
      setTimeout(() => {
        // Taken before the answer is written, not in the callback once it is flushed: the span
        // stays inside the client's own for the request, however late a busy machine runs that callback.
        const ms = performance.now() - started;
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ ok: status === 200, user: { id: 7 } }), () => {
          log.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status, ms });
        });
      }, req.url?.startsWith('/slow') ? LATENCY_MS : 0);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  files.cleanup();
});

/** The p-th percentile (0–100) of sorted values, nearest rank. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

test('10,000 requests at 20 ms: count and statuses equal the server log, percentiles agree with its latencies', async () => {
  files.write('slow.http', `### slow\nGET ${base}/slow\n`);
  log.length = 0;
  const result = await runCli(['stress', 'slow.http', '-n', 'slow', '--requests', '10000', '--workers', '50', '-o', 'json'], { cwd: files.dir, env, timeoutMs: 170_000 });
  expect(result.stderr).toBe('');
  const summary = JSON.parse(result.stdout) as { count: number; statuses: Record<string, number>; latency: Record<'min' | 'p50' | 'p90' | 'p99' | 'max', number>; errors: { total: number; kinds: Record<string, number> } };
  // What the server logged is what the run counted.
  expect(log).toHaveLength(10_000);
  expect(summary.count).toBe(10_000);
  const byStatus: Record<string, number> = {};
  for (const entry of log) byStatus[entry.status] = (byStatus[entry.status] ?? 0) + 1;
  expect(summary.statuses).toEqual(byStatus);
  expect(byStatus).toEqual({ 200: 9000, 503: 1000 });
  expect(summary.errors.kinds).toEqual({ http_5xx: 1000 });
  // A client's latency holds the server's: never below it, at each percentile.
  const server = log.map((entry) => entry.ms).sort((a, b) => a - b);
  for (const p of [50, 90, 99] as const) {
    const theirs = percentile(server, p);
    const ours = summary.latency[`p${p}`];
    expect(ours).toBeGreaterThanOrEqual(theirs - 1); // a millisecond of clock rounding between two processes
    expect(ours).toBeLessThan(theirs + 2_000); // what the client adds: generous, the machine may be busy
  }
  expect(summary.latency.min).toBeGreaterThanOrEqual(LATENCY_MS - 1);
}, 180_000);

/** The k6 script as a module: `k6/http` records each request and answers from `respond`; `k6`'s check collects the check sets. */
async function evaluateK6(script: string, environment: Record<string, string>) {
  const requests: Array<{ method: string; url: string; body: string | null; params: { headers: Record<string, string> } }> = [];
  const checkSets: Array<Record<string, (response: unknown) => boolean>> = [];
  const context = createContext({ __ENV: environment });
  const http = new SyntheticModule(
    ['default'],
    function (this: SyntheticModule) {
      this.setExport('default', { request: (method: string, url: string, body: string | null, params: { headers: Record<string, string> }) => requests.push({ method, url, body, params }) });
    },
    { context },
  );
  const k6 = new SyntheticModule(
    ['check'],
    function (this: SyntheticModule) {
      this.setExport('check', (_response: unknown, sets: Record<string, (response: unknown) => boolean>) => checkSets.push(sets));
    },
    { context },
  );
  const module = new SourceTextModule(script, { context });
  await module.link((specifier: string): Module => {
    if (specifier === 'k6/http') return http;
    if (specifier === 'k6') return k6;
    throw new Error(`the script imports ${specifier}`);
  });
  await module.evaluate();
  const exports = module.namespace as { default: () => void; options: unknown };
  exports.default(); // one iteration
  return { requests, checkSets, options: exports.options };
}

/** A real response as k6's `http.Response` shows it to checks. */
async function k6Response(request: { method: string; url: string; body: string | null; params: { headers: Record<string, string> } }) {
  const response = await fetch(request.url, { method: request.method, headers: request.params.headers, ...(request.body !== null ? { body: request.body } : {}) });
  const body = await response.text();
  return {
    status: response.status,
    headers: Object.fromEntries([...response.headers].map(([name, value]) => [name.replace(/(^|-)\w/g, (c) => c.toUpperCase()), value])),
    body,
    timings: { duration: 1 },
    json: (path?: string) => {
      const value = JSON.parse(body) as Record<string, unknown>;
      return path === undefined ? value : path.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], value);
    },
  };
}

test('the k6 script sends what reqflow sends, and its checks judge real responses as reqflow does', async () => {
  const TOKEN = 'sk_live_k6k6k6k6k6k6';
  files.write(
    'api.http',
    `### create\nPOST ${base}/users?page=2\nAuthorization: Bearer {{token}}\nContent-Type: application/json\nX-Trace: abc\n\n{"name": "Ada"}\n\n?? status == 200\n?? body $.user.id == 7\n`,
  );
  const generated = await runCli(['stress', 'api.http', '-n', 'create', '--as', 'k6', '--requests', '3', '-e', `token=${TOKEN}`], { cwd: files.dir, env });
  expect(generated.code).toBe(0);
  expect(generated.stdout).not.toContain(TOKEN);

  // What reqflow itself sends for the request…
  log.length = 0;
  expect((await runCli(['run', 'api.http', '-n', 'create', '-e', `token=${TOKEN}`, '-o', 'raw'], { cwd: files.dir, env })).code).toBe(0);
  const byReqflow = log[0] as Logged;
  // …and what the script's request list sends, with the secret given as k6's -e TOKEN=….
  const k6 = await evaluateK6(generated.stdout, { TOKEN });
  expect(k6.options).toMatchObject({ scenarios: { stress: { executor: 'shared-iterations', iterations: 3 } } });
  expect(k6.requests).toHaveLength(1);
  const request = k6.requests[0] as (typeof k6.requests)[number];
  log.length = 0;
  const response = await k6Response(request);
  const byK6 = log[0] as Logged;
  expect([byK6.method, byK6.url, byK6.body]).toEqual([byReqflow.method, byReqflow.url, byReqflow.body]);
  for (const name of ['authorization', 'content-type', 'x-trace']) expect(byK6.headers[name]).toBe(byReqflow.headers[name]);

  // Its checks, on that real response (200 unless it is every tenth), then on a real 500.
  const [checks] = k6.checkSets as [Record<string, (response: unknown) => boolean>];
  expect(Object.keys(checks)).toEqual(['status == 200', 'body $.user.id == 7']);
  expect(checks['body $.user.id == 7']?.(response)).toBe(true);
  expect(checks['status == 200']?.(response)).toBe(response.status === 200);
  const failing = await k6Response({ ...request, url: `${base}/fail` });
  expect(checks['status == 200']?.(failing)).toBe(false);
});
