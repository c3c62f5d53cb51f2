/**
 * The time-outs bound the server, not reqflow's reader: a body held back because the output is
 * slow (a pipe nobody reads for a while) is not a silence of the server's (`--timeout`), nor is a
 * body that has all arrived while reqflow still decodes and writes it (the kept-alive socket is
 * back in the pool then, on the pool's 4 s idle timer). And `# @streaming true` lifts the
 * time-outs only for an event stream: any other answer to it is bounded like any other body.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants } from 'node:zlib';
import { BIN, runCli, tempDir } from './helpers/cli.js';

const tmp = tempDir('reqflow-slow-reader-');
const env = { REQFLOW_STATE_DIR: `${tmp.dir}/state`, NO_COLOR: '1' };
const PLAIN_BYTES = 8 * 1024 * 1024;
const BROTLI_BYTES = 64 * 1024 * 1024;
const plain = Buffer.alloc(PLAIN_BYTES, 0x61);
// 64 MiB of zeros in ~50 bytes of brotli: the whole body is in at once, its decoding is not.
const brotli = brotliCompressSync(Buffer.alloc(BROTLI_BYTES), { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/plain') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(plain.length) });
      res.end(plain);
    } else if (req.url === '/brotli') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Encoding': 'br', 'Content-Length': String(brotli.length) });
      res.end(brotli);
    } else if (req.url === '/drip') {
      // Not an event stream: a byte every 100 ms, for at most 20 s (the test ends it sooner).
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      let sent = 0;
      const timer = setInterval(() => {
        if (++sent > 200 || res.destroyed) {
          clearInterval(timer);
          res.end();
        } else res.write('x');
      }, 100);
      res.on('close', () => clearInterval(timer));
    } else if (req.url === '/events') {
      // An event stream: events for 1.5 s, longer than the test's --max-time.
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      let n = 0;
      const timer = setInterval(() => {
        res.write(`data: ${++n}\n\n`);
        if (n === 15) {
          clearInterval(timer);
          res.end();
        }
      }, 100);
      res.on('close', () => clearInterval(timer));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

/** Runs reqflow with its output read only after `stallMs` (a pipe nobody reads meanwhile); the bytes it wrote. */
function runWithStalledReader(args: string[], stallMs: number): Promise<{ code: number | null; bytes: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: tmp.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let bytes = 0;
    let stderr = '';
    child.stdout.pause();
    const resume = setTimeout(() => child.stdout.resume(), stallMs);
    child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(resume);
      clearTimeout(kill);
      resolve({ code, bytes, stderr });
    });
  });
}

test('a body held back by a slow reader is not a silence of the server: --timeout 500 with the output unread for 2.5 s', async () => {
  const file = tmp.write('plain.http', `GET ${base}/plain\n`);
  const result = await runWithStalledReader(['run', file, '-o', 'raw', '--timeout', '500', '--no-history'], 2500);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  expect(result.bytes).toBe(PLAIN_BYTES);
}, 90_000);

test('a body that has all arrived is not timed out while it is decoded and written: brotli, the output unread for 5 s', async () => {
  const file = tmp.write('brotli.http', `GET ${base}/brotli\n`);
  const result = await runWithStalledReader(['run', file, '-o', 'raw', '--timeout', '60000', '--no-history'], 5000);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  expect(result.bytes).toBe(BROTLI_BYTES);
}, 90_000);

test('# @streaming true on an answer that is not an event stream: --max-time bounds it as any body (exit 4)', async () => {
  const file = tmp.write('drip.http', `# @streaming true\nGET ${base}/drip\n`);
  const result = await runCli(['run', file, '-o', 'json', '--max-time', '1500', '--no-history'], { env, cwd: tmp.dir, timeoutMs: 30_000 });
  expect(result.code).toBe(4);
  expect(result.stderr).toContain(`reqflow: GET ${base}/drip took longer than --max-time (1500 ms)`);
}, 60_000);

test('# @streaming true on an event stream: --max-time does not cut it (streams have --stream-timeout)', async () => {
  const file = tmp.write('events.http', `# @streaming true\nGET ${base}/events\n`);
  const result = await runCli(['run', file, '-o', 'json', '--max-time', '500', '--no-history'], { env, cwd: tmp.dir, timeoutMs: 30_000 });
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  expect(result.stdout.split('\n').filter((line) => line.includes('"type":"event"'))).toHaveLength(15);
}, 60_000);
