/**
 * Kept-alive connections a server drops: a server that answers the first request of each
 * connection and hangs up on the second (what happens when its keep-alive time-out and the next
 * request cross). A `Keep-Alive: timeout=N` the server announces is honoured, so such a
 * connection is not reused; without one, an idempotent request (GET, PUT, DELETE…) goes once
 * more on a new connection, as browsers and curl do, and any other is exit 4 saying that it may
 * or may not have reached the server: it is sent again only when the user asked for it
 * (`--retry N --retry-all`), as a server may act on a request and then reset.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { parseRecords } from './helpers/records.js';

const tmp = tempDir('reqflow-keepalive-');
let server: Server;
let base = '';
/** Request lines received, in order, and connections opened. */
const seen: string[] = [];
let connections = 0;

function serve(socket: Socket): void {
  connections += 1;
  let answered = 0;
  let buffered = '';
  socket.on('data', (chunk) => {
    buffered += chunk.toString('latin1');
    let end: number;
    while ((end = buffered.indexOf('\r\n\r\n')) !== -1) {
      const head = buffered.slice(0, end);
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffered.length < end + 4 + length) return;
      buffered = buffered.slice(end + 4 + length);
      seen.push(head.split('\r\n')[0] ?? '');
      if (answered === 1) {
        socket.destroy(); // the idle connection is gone by the time the request arrives
        return;
      }
      answered += 1;
      const body = JSON.stringify({ connection: connections });
      const hint = head.includes(' /hinted') ? 'Keep-Alive: timeout=1\r\n' : '';
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n${hint}\r\n${body}`);
    }
  });
  socket.on('error', () => undefined);
}

beforeAll(async () => {
  server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

const run = (name: string, text: string, ...args: string[]) =>
  runCli(['run', tmp.write(name, text.replaceAll('BASE', base)), '-o', 'json', ...args], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });

test('a server announcing Keep-Alive: timeout=1: its connection is not reused, nothing is reset', async () => {
  seen.length = 0;
  const before = connections;
  const result = await run('hinted.http', 'GET BASE/hinted\n\n###\nGET BASE/two\n');
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(parseRecords(result.stdout).map((r) => r.status)).toEqual([200, 200]);
  expect(seen).toEqual(['GET /hinted HTTP/1.1', 'GET /two HTTP/1.1']);
  expect(connections - before).toBe(2);
});

test('a GET on a connection the server dropped goes once more, on a new connection, and succeeds without --retry', async () => {
  seen.length = 0;
  const before = connections;
  const result = await run('get.http', 'GET BASE/one\n\n###\nGET BASE/two\n');
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(parseRecords(result.stdout).map((r) => [r.status, r.body])).toEqual([
    [200, { connection: before + 1 }],
    [200, { connection: before + 2 }],
  ]);
  expect(seen).toEqual(['GET /one HTTP/1.1', 'GET /two HTTP/1.1', 'GET /two HTTP/1.1']);
  // -v says so, and nothing else does.
  const verbose = await run('get-v.http', 'GET BASE/one\n\n###\nGET BASE/two\n', '-v');
  expect(verbose.stderr).toContain(`reqflow: ${base} closed the kept-alive connection as the GET went out: sent again on a new connection\n`);
});

test('a PUT and a DELETE (idempotent) go once more too; a PATCH does not', async () => {
  seen.length = 0;
  // Each connection answers its first request: the resent PUT's connection drops the DELETE.
  const put = await run('put.http', 'GET BASE/one\n\n###\nPUT BASE/two\nContent-Type: text/plain\n\nsame\n\n###\nDELETE BASE/three\n');
  expect(put).toMatchObject({ code: 0, stderr: '' });
  expect(seen).toEqual(['GET /one HTTP/1.1', 'PUT /two HTTP/1.1', 'PUT /two HTTP/1.1', 'DELETE /three HTTP/1.1', 'DELETE /three HTTP/1.1']);
  seen.length = 0;
  const patch = await run('patch.http', 'GET BASE/one\n\n###\nPATCH BASE/two\nContent-Type: text/plain\n\nonce\n');
  expect(patch.code).toBe(4);
  expect(patch.stderr).toContain('it may or may not have reached the server (--retry N --retry-all sends it again)');
  expect(seen).toEqual(['GET /one HTTP/1.1', 'PATCH /two HTTP/1.1']);
});

test('a POST: exit 4, the server saw it once, the hint names --retry-all', async () => {
  seen.length = 0;
  const result = await run('post.http', 'GET BASE/one\n\n###\nPOST BASE/two\nContent-Type: text/plain\n\nonce\n');
  expect(result.code).toBe(4);
  expect(result.stderr).toMatch(/^reqflow: connection to 127\.0\.0\.1:\d+ was reset\nhint: the server closed the kept-alive connection as the POST went out: it may or may not have reached the server \(--retry N --retry-all sends it again\)\n$/);
  expect(seen).toEqual(['GET /one HTTP/1.1', 'POST /two HTTP/1.1']);
});

test('--retry-all is the user saying a POST may go twice: it does, and succeeds', async () => {
  seen.length = 0;
  const result = await run('post-retry.http', 'GET BASE/one\n\n###\nPOST BASE/two\nContent-Type: text/plain\n\nonce\n', '--retry', '1', '--retry-all');
  expect(result).toMatchObject({ code: 0 });
  expect(seen).toEqual(['GET /one HTTP/1.1', 'POST /two HTTP/1.1', 'POST /two HTTP/1.1']);
});
