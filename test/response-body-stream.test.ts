/**
 * The body stream the pipeline reads (src/core/http/response-body.ts): handed on from the
 * response by a plain Readable that counts and records each chunk. A reader that comes late gets
 * every byte, the response waits for it (nothing piles up in memory), a reset mid-body is the
 * usual one-line error, and a reader that lets go stops the response.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { get, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import { toResponseInfo } from '../src/core/http/response-body.js';
import { fromIncomingMessage } from '../src/core/http/raw-response.js';
import type { ResponseInfo } from '../src/core/model.js';

const BIG = Buffer.alloc(8 * 1024 * 1024, 'abcdefgh');
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/big') {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': BIG.length });
      res.end(BIG);
    } else {
      // Announces more than it sends, then resets the connection mid-body.
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': 1000 });
      res.write('partial', () => setTimeout(() => res.socket?.destroy(), 20));
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

async function responseOf(path: string): Promise<{ info: ResponseInfo; res: IncomingMessage }> {
  const res = await new Promise<IncomingMessage>((resolve, reject) => get(`${base}${path}`, resolve).on('error', reject));
  const url = new URL(`${base}${path}`);
  return { info: toResponseInfo(fromIncomingMessage(res, () => undefined, () => undefined), 1, { method: 'GET', url }), res };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

test('a reader that comes late gets every byte, counted, and the response waits for it meanwhile', async () => {
  const { info } = await responseOf('/big');
  const stream = info.stream as Readable;
  await sleep(200); // the server has written everything; no one reads yet
  // Held back by the paused response (the socket's buffers), not by the body stream: far below 8 MiB.
  expect(stream.readableLength).toBeLessThan(1024 * 1024);
  const body = await readAll(stream);
  expect(body.equals(BIG)).toBe(true);
  expect(info.size).toBe(BIG.length);
});

test('a reset mid-body is the one-line network error, not a raw socket error', async () => {
  const { info } = await responseOf('/cut');
  const error = (await readAll(info.stream as Readable).then(
    () => undefined,
    (reason: unknown) => reason,
  )) as Error & { exitCode?: number };
  expect(error).toBeInstanceOf(Error);
  expect(error.message).toMatch(/^connection to 127\.0\.0\.1:\d+ was reset/);
  expect(error.exitCode).toBeDefined(); // a ReqflowError: its exit code, no stack for the user
  expect(info.size).toBe('partial'.length);
});

test('a reader that lets go stops the response', async () => {
  const { info, res } = await responseOf('/big');
  const stream = info.stream as Readable;
  const first = await new Promise<Buffer>((resolve) => stream.once('data', resolve));
  expect(first.length).toBeGreaterThan(0);
  stream.destroy();
  await once(stream, 'close');
  expect(res.destroyed).toBe(true);
  expect(info.size).toBeLessThan(BIG.length);
});
