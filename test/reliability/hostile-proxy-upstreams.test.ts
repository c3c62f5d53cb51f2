/**
 * `reqflow proxy` in front of servers that misbehave on purpose (raw sockets on 127.0.0.1): a
 * status below 100, a `101` nobody asked for, an endless stream of `1xx`, silence, a large body.
 * The client must get a one-line `502` (or the bytes, passed through), the proxy must keep
 * running and answering, print no stack trace, and hold bounded memory. Waits are bounded
 * counts of short sleeps, never a measured time.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { startCli, stopAllClis, type LiveCli } from '../helpers/cli-live.js';
import { startRawServer } from '../helpers/fault-server.js';

const BIG = 128 * 1024 * 1024;
/** 256 MiB of zeros as about 256 KB of gzip. */
const BOMB = gzipSync(Buffer.alloc(256 * 1024 * 1024));
const files = tempDir('reqflow-hostile-upstreams-');
let upstream: Awaited<ReturnType<typeof startRawServer>>;
let proxy: LiveCli;
let proxyPort = 0;

/** Writes `chunk` as fast as the socket takes it, `times` times, then ends. */
function pour(socket: Socket, chunk: Buffer | string, times = Infinity): void {
  let left = times;
  const more = (): void => {
    while (socket.writable && left > 0) {
      left--;
      if (!socket.write(chunk)) return void socket.once('drain', more);
    }
    if (left === 0) socket.end();
  };
  more();
}

beforeAll(async () => {
  upstream = await startRawServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', (data) => {
      const path = new URL(data.toString('latin1').split(' ')[1] ?? '/', 'http://x').pathname;
      if (path === '/status-099') return void socket.end('HTTP/1.1 099 Odd\r\nContent-Length: 2\r\n\r\nhi');
      if (path === '/switch') return void socket.end('HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: other\r\n\r\n');
      if (path === '/interim') return void pour(socket, 'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n'.repeat(50));
      if (path === '/silent') return; // reads the request, never answers
      if (path === '/garbage') return void socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n');
      if (path === '/reset') return void (socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\nhalf'), setTimeout(() => socket.resetAndDestroy(), 50));
      if (path === '/escapes') return void socket.end('HTTP/1.1 200 O\x9b2JK\r\nX-Title: \x9b]0;owned\r\nContent-Type: text/plain\r\nContent-Length: 14\r\n\r\n\x1b]0;owned\x07ok', 'latin1');
      if (path === '/bomb') return void (socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${BOMB.length}\r\n\r\n`), socket.end(BOMB));
      if (path === '/big') {
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: ${BIG}\r\n\r\n`);
        return void pour(socket, Buffer.alloc(1024 * 1024, 0x62), BIG / (1024 * 1024));
      }
      socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok');
    });
  });
  proxy = startCli(['proxy', '--port', '0', '--timeout', '1000', '--save', 'captured'], { cwd: files.dir, env: { REQFLOW_STATE_DIR: join(files.dir, 'state') }, timeoutMs: 240_000 });
  proxyPort = Number((await proxy.waitForStdout(/listening on http:\/\/127\.0\.0\.1:(\d+)/))[1]);
});

afterAll(async () => {
  stopAllClis();
  await proxy.done.catch(() => undefined);
  await upstream.close();
  files.cleanup();
});

/** The proxy's peak resident memory so far, in MB, from /proc. */
const peakRssMb = (): number => Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${proxy.child.pid as number}/status`, 'utf8'))?.[1]) / 1024;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A GET through the proxy on a connection of its own: the status code, and how many bytes came back in all. */
async function viaProxy(path: string): Promise<{ status: string; head: string; size: number }> {
  const socket = connect(proxyPort, '127.0.0.1');
  let head = '';
  let size = 0;
  let closed = false;
  socket.on('data', (chunk: Buffer) => {
    if (head.length < 2000) head += chunk.subarray(0, 2000).toString('latin1');
    size += chunk.length;
  });
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  socket.write(`GET ${upstream.url}${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  for (let i = 0; i < 1200 && !closed; i++) await sleep(50);
  socket.destroy();
  return { status: head.slice(9, 12), head, size };
}

test.each([
  ['/status-099', /answered with status 99: not an HTTP status code/],
  ['/switch', /switched protocols \(101\) without being asked/],
  ['/interim', /more than 100 interim \(1xx\) responses and no final one/],
  ['/silent', /timed out after 1000 ms/],
  ['/garbage', /did not answer with valid HTTP/],
])('%s: the client gets a 502 saying why, the proxy goes on', async (path, reason) => {
  const answer = await viaProxy(path);
  expect(answer.status).toBe('502');
  expect(answer.head).toMatch(reason);
  await proxy.waitForStdout(new RegExp(`GET ${upstream.url}${path}  502 .*${reason.source}`));
  expect((await viaProxy('/ok')).status).toBe('200');
  expect(proxy.child.exitCode).toBeNull();
  expect(proxy.stderr()).not.toMatch(/\n\s+at |RangeError|ERR_HTTP/);
});

test('a server that resets half-way through its body: the client\'s connection is closed (a cut body is not taken for a whole one), the line says why', async () => {
  const answer = await viaProxy('/reset');
  expect(answer.status).toBe('200');
  expect(answer.size).toBeLessThan(100_000);
  await proxy.waitForStdout(/GET http:\/\/127\.0\.0\.1:\d+\/reset {2}200 .*\(connection to 127\.0\.0\.1:\d+ was reset\)/);
});

test('escape sequences in a server\'s status, headers and body are passed on as sent, and never reach the proxy\'s lines', async () => {
  const answer = await viaProxy('/escapes');
  expect(answer.status).toBe('200');
  expect(answer.head).toContain('X-Title: \x9b]0;owned');
  await proxy.waitForStdout(/\/escapes {2}200 /);
  expect(proxy.stdout() + proxy.stderr()).not.toMatch(/[\u0007\u001b\u009b]/);
});

test('a gzip bomb passes through unopened: the client gets the compressed bytes, the proxy\'s memory stays bounded', async () => {
  const answer = await viaProxy('/bomb');
  expect(answer.status).toBe('200');
  expect(answer.size).toBeGreaterThan(BOMB.length);
  expect(answer.size).toBeLessThan(BOMB.length + 2000);
  await proxy.waitForStdout(/\/bomb {2}200 /);
  expect(peakRssMb()).toBeLessThan(256);
});

test('a large body passes through whole while the proxy holds bounded memory', async () => {
  const answer = await viaProxy('/big');
  expect(answer.status).toBe('200');
  expect(answer.size).toBeGreaterThan(BIG);
  expect(peakRssMb()).toBeLessThan(256);
  await proxy.waitForStdout(/GET http:\/\/127\.0\.0\.1:\d+\/big {2}200 .*128\.0 MB/);
});

test('a password in the URL is masked in the live line and never written to the saved request', async () => {
  const secret = 'pw-7c1e0a9b55';
  const socket = connect(proxyPort, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(`GET http://user:${secret}@${upstream.url.slice('http://'.length)}/url-password HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  const [, saved] = await proxy.waitForStdout(/saved (captured\/\d+-get-127\.0\.0\.1-\d+-url-password\.http)/);
  socket.destroy();
  const text = readFileSync(join(files.dir, saved as string), 'utf8');
  expect(text).toContain('GET http://user:{{password}}@127.0.0.1:');
  expect(text).toContain('-e password=…');
  expect(text).not.toContain(secret);
  expect(proxy.stdout()).not.toContain(secret);
});

test('a server that resets a kept-alive connection as the next request goes out: a GET goes once more on a new connection, a POST never twice', async () => {
  // Answers the first request of each connection (kept alive), resets the connection on the next.
  const arrived: string[] = [];
  const closing = await startRawServer((socket) => {
    socket.on('error', () => undefined);
    let answered = false;
    socket.on('data', (data) => {
      arrived.push(data.toString('latin1').split(' ').slice(0, 2).join(' '));
      if (answered) return void socket.resetAndDestroy();
      answered = true;
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok');
    });
  });
  const through = async (method: string, path: string): Promise<string> => {
    const socket = connect(proxyPort, '127.0.0.1');
    let text = '';
    let closed = false;
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => (closed = true));
    socket.write(`${method} ${closing.url}${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    for (let i = 0; i < 200 && !closed; i++) await sleep(50);
    return text.slice(9, 12);
  };
  try {
    expect(await through('GET', '/first')).toBe('200');
    expect(await through('GET', '/again')).toBe('200');
    expect(arrived.filter((line) => line === `GET ${'/again'}`)).toHaveLength(2);
    expect(await through('POST', '/once')).toBe('502');
    expect(arrived.filter((line) => line === 'POST /once')).toHaveLength(1);
  } finally {
    await closing.close();
  }
});
