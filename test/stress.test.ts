/**
 * `reqflow stress`: the built CLI against a real server on 127.0.0.1 that counts what it
 * receives and how many requests it holds at once. Counts are asserted, not times: bounds on
 * time are generous (a busy 2-core machine).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { runCli, tempDir } from './helpers/cli.js';

interface Seen {
  requests: number;
  inFlight: number;
  maxInFlight: number;
  authorization: Set<string>;
}

let server: Server;
let base: string;
const seen: Seen = { requests: 0, inFlight: 0, maxInFlight: 0, authorization: new Set() };
let files: ReturnType<typeof tempDir>;

beforeAll(async () => {
  let mix = 0;
  server = createServer((req, res) => {
    seen.requests++;
    seen.inFlight++;
    seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
    if (req.headers.authorization) seen.authorization.add(req.headers.authorization);
    const answer = (status: number, body: unknown): void => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
      seen.inFlight--;
    };
    req.resume();
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/mix') {
      // Every fourth request fails: 3 × 200, 1 × 500, in that order.
      mix++;
      return answer(mix % 4 === 0 ? 500 : 200, { ok: mix % 4 !== 0 });
    }
    if (path === '/slow') return void setTimeout(() => answer(200, { ok: true }), 150);
    return answer(200, { ok: true });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  files = tempDir('reqflow-stress-');
  Object.assign(seen, { requests: 0, inFlight: 0, maxInFlight: 0, authorization: new Set() });
});
afterEach(() => files.cleanup());

const env = (): NodeJS.ProcessEnv => ({ REQFLOW_STATE_DIR: `${files.dir}/state` });

function requestFile(body: string): string {
  return files.write('api.http', body.replaceAll('BASE', base));
}

async function stressJson(args: string[]): Promise<{ code: number | null; summary: Record<string, any>; stderr: string }> {
  const result = await runCli(['stress', ...args, '-o', 'json'], { cwd: files.dir, env: env(), timeoutMs: 60_000 });
  return { code: result.code, summary: JSON.parse(result.stdout || '{}') as Record<string, any>, stderr: result.stderr };
}

describe('reqflow stress', () => {
  test('sends exactly --requests, counts statuses and checks per check', async () => {
    requestFile('### mix\nGET BASE/mix\n?? status == 200\n?? body $.ok == true\n\n### other\nGET BASE/ok\n');
    const { code, summary } = await stressJson(['api.http', '-n', 'mix', '--requests', '40', '--workers', '4']);
    expect(code).toBe(0);
    expect(seen.requests).toBe(40);
    expect(summary.count).toBe(40);
    expect(summary.statuses).toEqual({ 200: 30, 500: 10 });
    expect(summary.errors).toEqual({ total: 10, rate: 0.25, kinds: { check_failed: 10 } });
    expect(summary.checks).toEqual([
      { name: 'status == 200', line: 3, passed: 30, failed: 10 },
      { name: 'body $.ok == true', line: 4, passed: 30, failed: 10 },
    ]);
    expect(summary.request).toEqual({ name: 'mix', method: 'GET', url: `${base}/mix` });
    for (const key of ['min', 'avg', 'p50', 'p90', 'p95', 'p99', 'max']) expect(typeof summary.latency[key]).toBe('number');
    expect(summary.latency.p50).toBeLessThanOrEqual(summary.latency.p99);
    expect(summary.latency.p99).toBeLessThanOrEqual(summary.latency.max);
    expect(summary.rps).toBeGreaterThan(0);
    expect(summary).toMatchObject({ settings: { workers: 4, rampUpMs: 0, requests: 40 }, thresholds: [], passed: true, interrupted: false });
  });

  test('a 500 without checks is counted as HTTP 5xx; the table shows the distribution', async () => {
    requestFile('### mix\nGET BASE/mix\n');
    const result = await runCli(['stress', 'api.http', '--requests', '8', '-c', '2'], { cwd: files.dir, env: env(), timeoutMs: 60_000 });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('200 ×6');
    expect(result.stdout).toContain('500 ×2');
    expect(result.stdout).toMatch(/errors\s+2 \(25\.0 %\): HTTP 5xx 2/);
    expect(result.stderr).toBe(''); // not a terminal: no progress line
  });

  test('a closed port is counted as connection refused, with no latency', async () => {
    const closed = createNetServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    files.write('api.http', `### gone\nGET http://127.0.0.1:${port}/\n`);
    const { code, summary } = await stressJson(['api.http', '--requests', '6', '-c', '2']);
    expect(code).toBe(0);
    expect(summary.count).toBe(6);
    expect(summary.errors).toEqual({ total: 6, rate: 1, kinds: { refused: 6 } });
    expect(summary.latency).toBeUndefined();
    expect(summary.statuses).toEqual({});
  });

  test('thresholds: held → exit 0, crossed → exit 1, malformed → exit 2 with one line naming it', async () => {
    requestFile('### ok\nGET BASE/ok\n');
    const held = await stressJson(['api.http', '--requests', '10', '--threshold', 'p95<30s', '--threshold', 'error_rate<1%']);
    expect(held.code).toBe(0);
    expect(held.summary.thresholds).toEqual([
      { threshold: 'p95<30s', actual: expect.any(Number), passed: true },
      { threshold: 'error_rate<1%', actual: 0, passed: true },
    ]);
    const crossed = await runCli(['stress', 'api.http', '--requests', '10', '--threshold', 'max<0ms', '--threshold', 'rps>1000000'], { cwd: files.dir, env: env(), timeoutMs: 60_000 });
    expect(crossed.code).toBe(1);
    expect(crossed.stdout).toContain('✗ max<0ms');
    expect(crossed.stdout).toContain('FAIL: 2 of 2 thresholds crossed');
    const malformed = await runCli(['stress', 'api.http', '--requests', '10', '--threshold', 'p95<300xs'], { cwd: files.dir, env: env() });
    expect(malformed.code).toBe(2);
    expect(malformed.stdout).toBe('');
    expect(malformed.stderr.split('\n')[0]).toBe('reqflow: --threshold "p95<300xs": a latency is in ms or s, not "xs"');
    expect(malformed.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const unknown = await runCli(['stress', 'api.http', '--threshold', 'p95 300'], { cwd: files.dir, env: env() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--threshold "p95 300"');
    expect(seen.requests).toBe(20); // the malformed runs sent nothing
  });

  test('--rate caps the requests per second across workers', async () => {
    requestFile('### ok\nGET BASE/ok\n');
    const { code, summary } = await stressJson(['api.http', '--duration', '1s', '--rate', '10', '--workers', '4']);
    expect(code).toBe(0);
    // 10 per second for 1 s: turns start at 0, 100, … 900 ms — never more than 10 (a little slack).
    expect(summary.count).toBeGreaterThanOrEqual(1);
    expect(summary.count).toBeLessThanOrEqual(11);
    expect(seen.requests).toBe(summary.count);
  });

  test('--workers N: the server holds up to N requests at once, never more', async () => {
    requestFile('### slow\nGET BASE/slow\n');
    const { summary } = await stressJson(['api.http', '--requests', '25', '--workers', '5']);
    expect(summary.count).toBe(25);
    expect(seen.maxInFlight).toBeLessThanOrEqual(5);
    expect(seen.maxInFlight).toBeGreaterThanOrEqual(3);
  });

  test('more workers than a run\'s usual 16 connections: each worker has its own', async () => {
    requestFile('### slow\nGET BASE/slow\n');
    const { summary } = await stressJson(['api.http', '--requests', '40', '--workers', '20']);
    expect(summary.count).toBe(40);
    expect(seen.maxInFlight).toBeGreaterThan(16);
  });

  test('usage errors: --duration with --requests, a file of many requests without -n', async () => {
    requestFile('### a\nGET BASE/ok\n\n### b\nGET BASE/ok\n');
    const both = await runCli(['stress', 'api.http', '-n', 'a', '--duration', '1s', '--requests', '3'], { cwd: files.dir, env: env() });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --duration or --requests, not both');
    const which = await runCli(['stress', 'api.http'], { cwd: files.dir, env: env() });
    expect(which.code).toBe(2);
    expect(which.stderr).toContain('has 2 requests: name one with -n');
    expect(seen.requests).toBe(0);
  });

  test('secrets never reach the output', async () => {
    requestFile('### me\nGET BASE/ok?api_key={{apiKey}}\nAuthorization: Bearer {{token}}\n');
    const result = await runCli(['stress', 'api.http', '--requests', '3', '-e', 'token=sk_live_0123456789', '-e', 'apiKey=ak_9876543210'], { cwd: files.dir, env: env(), timeoutMs: 60_000 });
    expect(result.code).toBe(0);
    expect(seen.authorization).toEqual(new Set(['Bearer sk_live_0123456789']));
    expect(result.stdout + result.stderr).not.toContain('sk_live_0123456789');
    expect(result.stdout + result.stderr).not.toContain('ak_9876543210');
  });
});
