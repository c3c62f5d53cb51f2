/**
 * `--retry` / `# @retry` end to end against a server that answers 503 with Retry-After twice,
 * then 200: the waits, the methods that may be retried, connection failures, `-v` and the
 * `retries` count of `-o json`.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { parseRecords } from './helpers/records.js';

const tmp = tempDir('reqflow-retry-');
let server: Server;
let base = '';
/** Requests seen per path. */
const counts = new Map<string, number>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const n = (counts.get(req.url ?? '') ?? 0) + 1;
    counts.set(req.url ?? '', n);
    req.resume();
    if (path === '/flaky' && n <= 2) {
      res.writeHead(503, { 'Retry-After': '1' });
      return res.end('busy');
    }
    if (path === '/limited' && n === 1) {
      res.writeHead(429, { 'Retry-After': new Date(Date.now() + 1000).toUTCString() });
      return res.end('slow down');
    }
    if (path === '/always-503') {
      res.writeHead(503);
      return res.end('down');
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ attempt: n }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

const run = (text: string, ...args: string[]) => runCli(['run', tmp.write(`r-${counts.size}-${Math.random()}.http`, text.replaceAll('BASE', base)), ...args], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });

describe('--retry', () => {
  test('503 with Retry-After twice, then 200: waited as told, sent three times, -v and -o json say so', async () => {
    const started = Date.now();
    const result = await run('GET BASE/flaky?a\n', '--retry', '3', '-v', '-o', 'json');
    expect(result.code).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(counts.get('/flaky?a')).toBe(3);
    expect(result.stderr).toContain('reqflow: 503 Service Unavailable: retry 1 of 3 in 1000 ms');
    expect(result.stderr).toContain('reqflow: 503 Service Unavailable: retry 2 of 3 in 1000 ms');
    const [record] = parseRecords(result.stdout);
    expect(record).toMatchObject({ status: 200, retries: 2, body: { attempt: 3 } });
  });

  test('429 with a Retry-After date; # @retry in the file', async () => {
    const result = await run('# @retry 1\nGET BASE/limited?b\n', '-o', 'json');
    expect(result.code).toBe(0);
    expect(counts.get('/limited?b')).toBe(2);
  });

  test('never a POST unless --retry-all; retries that run out give the last answer', async () => {
    const post = await run('POST BASE/flaky?c\n', '--retry', '3');
    expect(post.code).toBe(1);
    expect(counts.get('/flaky?c')).toBe(1);
    const all = await run('POST BASE/flaky?d\n', '--retry', '3', '--retry-all');
    expect(all.code).toBe(0);
    expect(counts.get('/flaky?d')).toBe(3);
    const out = await run('GET BASE/always-503?e\n', '--retry', '2', '-o', 'json');
    expect(out.code).toBe(1);
    expect(counts.get('/always-503?e')).toBe(3);
    expect((parseRecords(out.stdout)[0] as { retries?: number }).retries).toBe(2);
  });

  test('a refused connection is tried again, then is exit 4', async () => {
    const result = await run('GET http://127.0.0.1:1/nothing\n', '--retry', '2', '-v');
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/connection refused by 127\.0\.0\.1:1: retry 1 of 2 in \d+ ms/);
    expect(result.stderr).toMatch(/retry 2 of 2 in \d+ ms/);
  });

  test('bad values are exit 2 naming them', async () => {
    const flag = await run('GET BASE/x\n', '--retry', 'many');
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--retry expects a whole number from 0 to 100');
    const annotation = await run('# @retry lots\nGET BASE/x\n');
    expect(annotation.code).toBe(2);
    expect(annotation.stderr).toMatch(/# @retry of request "request-1" .* expects a whole number from 0 to 100/);
  });
});
