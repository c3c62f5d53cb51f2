/**
 * Hostile servers and files: each is a clear error (or a bounded fallback) in bounded time —
 * never a hang, a crash (exit 70), or a silent exit 0.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createServer as createRawServer, type AddressInfo, type Server as RawServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { parseRecords } from '../helpers/records.js';
import { runCli, tempDir } from '../helpers/cli.js';

let server: Server;
let raw: RawServer;
let url = '';
let rawUrl = '';
const tmp = tempDir('reqflow-hostile-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
const DEPTH = 100_000;

/**
 * Resolves with how long `socket` stays open from now, as its server sees it: what the client
 * spent on the connection, without the seconds a busy machine may take to start the client.
 */
const openFor = (socket: Socket): Promise<number> => {
  const opened = Date.now();
  return new Promise((resolve) => socket.once('close', () => resolve(Date.now() - opened)));
};

/**
 * Resolves, once `socket` closes, with whether the server still had more to send (`unfinished()`
 * then): the client hung up on it, rather than waiting for it to end. No clock involved.
 */
const cutShort = (socket: Socket, unfinished: () => boolean): Promise<boolean> => new Promise((resolve) => socket.once('close', () => resolve(unfinished())));

beforeAll(async () => {
  const deep = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
  server = createServer((req, res) => {
    if (req.url === '/deep') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(deep);
    if (req.url === '/not-http') return void res.writeHead(302, { Location: 'javascript:alert(1)' }).end();
    if (req.url === '/malformed') return void res.writeHead(302, { Location: 'http://[::1' }).end();
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('after');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  raw = createRawServer((socket) => socket.once('data', () => socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: evil\r\nConnection: Upgrade\r\n\r\n')));
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all([new Promise((resolve) => server.close(resolve)), new Promise((resolve) => raw.close(resolve))]);
  tmp.cleanup();
});

test('a body nested 100,000 levels deep: pretty shows it as text with a warning, -o json writes it as received; both quick', async () => {
  const file = tmp.write('deep.http', `GET ${url}/deep\n`);
  const started = Date.now();
  const pretty = await runCli(['run', file], { env });
  expect(pretty.code).toBe(0);
  expect(pretty.stderr).toContain('nested deeper than 1000 levels');
  expect(pretty.stdout.length).toBe(2 * DEPTH + 1);
  const json = await runCli(['run', file, '-o', 'json'], { env });
  expect(json.code).toBe(0);
  expect(json.stderr).toBe('');
  // The body's own text goes into the record (nothing re-serialised): one valid line.
  expect(json.stdout).toContain(`"body":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)},`);
  expect(parseRecords(json.stdout)).toHaveLength(1);
  expect(Date.now() - started).toBeLessThan(10_000);
});

test('a body nested 100,000 levels deep with a filter: exit 1 saying so (pretty, -o json, -o raw), quickly', async () => {
  const file = tmp.write('deep-filter.http', `GET ${url}/deep\n`);
  for (const [filter, output] of [['[0]', 'pretty'], ['@', 'pretty'], ['@', 'json'], ['length(@)', 'raw']] as const) {
    const started = Date.now();
    const result = await runCli(['run', file, '--filter', filter, '-o', output], { env });
    expect({ filter, output, code: result.code }).toEqual({ filter, output, code: 1 });
    expect(result.stderr).toContain(`reqflow: JMESPath filter ${JSON.stringify(filter)} cannot apply: the JSON is nested more than 1000 levels deep\n`);
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(Date.now() - started).toBeLessThan(10_000);
  }
});

test('an unsolicited 101 Switching Protocols is exit 4, and the rest of the file still runs', async () => {
  const file = tmp.write('upgrade.http', `GET ${rawUrl}/\n\n###\nGET ${url}/next\n`);
  const result = await runCli(['run', file, '-o', 'json'], { env });
  expect(result.code).toBe(4);
  const records = parseRecords(result.stdout);
  expect(records.map((r) => r.type)).toEqual(['error', 'response']);
  expect(records[0]?.error).toMatchObject({ exitCode: 4, message: expect.stringContaining('switched protocols (101 Switching Protocols) without being asked') });
});

test('a Location that is not http(s), or not a URL at all, is exit 4 showing the value', async () => {
  const notHttp = await runCli(['run', tmp.write('loc1.http', `GET ${url}/not-http\n`), '-L'], { env });
  expect(notHttp.code).toBe(4);
  expect(notHttp.stderr).toContain('the server redirected to a location that is not http(s): "javascript:alert(1)"');
  const malformed = await runCli(['run', tmp.write('loc2.http', `GET ${url}/malformed\n`), '-L'], { env });
  expect(malformed.code).toBe(4);
  expect(malformed.stderr).toContain('the server redirected to a malformed location: "http://[::1"');
});

test('a request file that is /dev/zero is refused at once; a FIFO is read like a file (process substitution)', async () => {
  const zero = await runCli(['run', '/dev/zero'], { env, timeoutMs: 10_000 });
  expect([zero.code, zero.stderr.trim()]).toEqual([2, 'reqflow: cannot read request file /dev/zero: it is a device, not a file']);
  const fifo = join(tmp.dir, 'pipe.http');
  execFileSync('mkfifo', [fifo]);
  // A writer, as `<(printf …)` has: the request it writes is read and sent (here to a closed port: exit 4).
  const writer = spawn('sh', ['-c', `printf 'GET http://127.0.0.1:1/from-fifo\\n' > '${fifo}'`], { stdio: 'ignore' });
  const piped = await runCli(['run', fifo], { env, timeoutMs: 10_000 });
  writer.kill();
  expect(piped.code).toBe(4);
  expect(piped.stderr).toMatch(/^reqflow: connection refused by 127\.0\.0\.1:1/m);
});

test('an endless server-sent event ends the stream with exit 4 at 16 MiB, in bounded time', async () => {
  const sse = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.write('data: ');
    const piece = 'x'.repeat(64 * 1024);
    let sent = 0;
    // Bounded: 40 MiB at most, then the server gives up by itself.
    const pump = (): void => {
      while (sent < 40 * 1024 * 1024) {
        sent += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => sse.listen(0, '127.0.0.1', resolve));
  try {
    const file = tmp.write('endless.http', `# @streaming true\nGET http://127.0.0.1:${(sse.address() as AddressInfo).port}/\n`);
    const result = await runCli(['run', file], { env, timeoutMs: 20_000 });
    expect(result.code).toBe(4);
    // Said as what it is: reqflow stopped reading; the connection did not break off.
    expect(result.stderr).toBe('HTTP/1.1 200 OK  0 ms\nreqflow: stopped reading the stream after 0 events: the server sent an event larger than 16 MiB\nhint: an event that never ends: reqflow stops reading the stream there\n'.replace('0 ms', /\d+ ms/.exec(result.stderr)?.[0] ?? ''));
  } finally {
    sse.closeAllConnections();
    await new Promise((resolve) => sse.close(resolve));
  }
});

test('a server that drips one byte at a time is ended by --max-time (the idle --timeout never fires); a quick request is unaffected', async () => {
  let cut: Promise<boolean> | undefined;
  const drip = createServer((req, res) => {
    let n = 0;
    cut = cutShort(req.socket, () => n < 100);
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    const timer = setInterval(() => {
      res.write('x');
      if (++n >= 100) {
        clearInterval(timer);
        res.end(); // bounded: 10 s at most, then the server stops by itself
      }
    }, 100);
    req.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => drip.listen(0, '127.0.0.1', resolve));
  try {
    const file = tmp.write('drip.http', `GET http://127.0.0.1:${(drip.address() as AddressInfo).port}/\n\n###\nGET ${url}/quick\n`);
    const result = await runCli(['run', file, '--max-time', '600', '--timeout', '1000', '-o', 'json'], { env, timeoutMs: 20_000 });
    expect(await cut).toBe(true); // the client hung up with the drip still going (it lasts 10 s)
    expect(result.code).toBe(4);
    const [dripped, quick] = parseRecords(result.stdout);
    expect(dripped?.error).toMatchObject({ exitCode: 4, message: expect.stringMatching(/took longer than --max-time \(600 ms\)$/) });
    expect(quick).toMatchObject({ type: 'response', status: 200, body: 'after' });
  } finally {
    drip.closeAllConnections();
    await new Promise((resolve) => drip.close(resolve));
  }
});

test('a server that drips a byte every 300 ms is ended by the request\'s own # @timeout 150 ms (each silence), exit 4', async () => {
  let cut: Promise<boolean> | undefined;
  const drip = createServer((req, res) => {
    let n = 0;
    cut = cutShort(req.socket, () => n < 30);
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    const timer = setInterval(() => {
      res.write('x');
      if (++n >= 30) {
        clearInterval(timer);
        res.end(); // bounded: 9 s at most
      }
    }, 300);
    req.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => drip.listen(0, '127.0.0.1', resolve));
  try {
    const file = tmp.write('drip-annotated.http', `# @timeout 150 ms\nGET http://127.0.0.1:${(drip.address() as AddressInfo).port}/\n`);
    const result = await runCli(['run', file], { env, timeoutMs: 20_000 });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/timed out after 150 ms/);
    expect(await cut).toBe(true); // the client hung up with the drip still going (it lasts 9 s)
  } finally {
    drip.closeAllConnections();
    await new Promise((resolve) => drip.close(resolve));
  }
});

/** A raw TCP server for one test: `onSocket` plays the hostile part. */
async function rawServer(onSocket: (socket: import('node:net').Socket) => void): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const s = createRawServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    onSocket(socket);
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return {
    url: `127.0.0.1:${(s.address() as AddressInfo).port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => s.close(resolve));
    },
  };
}

test('a flood of 1xx interim responses is exit 4 at once, the idle time-out being reset by each; a few 103s before a 200 are fine', async () => {
  let lasted: Promise<number> | undefined;
  const flood = await rawServer((socket) =>
    socket.once('data', () => {
      lasted = openFor(socket);
      const tick = setInterval(() => {
        if (!socket.writable) return clearInterval(tick);
        socket.write('HTTP/1.1 103 Early Hints\r\nLink: </app.css>; rel=preload\r\n\r\n'.repeat(50));
      }, 2);
      socket.once('close', () => clearInterval(tick));
    }),
  );
  const hints = await rawServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n'.repeat(5) + 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nfinal')));
  try {
    const result = await runCli(['run', tmp.write('flood.http', `GET http://${flood.url}/\n`), '--timeout', '10000'], { env });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(`reqflow: GET http://${flood.url}/: the server sent more than 100 interim (1xx) responses and no final one\nhint: a broken or hostile server: it never answers the request\n`);
    expect(await lasted).toBeLessThan(5000); // not at the 10 s time-out
    const fine = await runCli(['run', tmp.write('hints.http', `GET http://${hints.url}/\n`), '-o', 'raw'], { env });
    expect(fine).toMatchObject({ code: 0, stdout: 'final' });
  } finally {
    await Promise.all([flood.close(), hints.close()]);
  }
});

test('a TLS handshake that never completes (the server accepts and says nothing) ends with the time-out, exit 4', async () => {
  let accepted = false;
  const silent = await rawServer((socket) => {
    socket.resume(); // reads (and drops) the ClientHello
    accepted = true;
  });
  try {
    // At the time-out, not twice it (Node's idle timer lets a first expiry pass while the ClientHello
    // is queued). Not before it: counted from the start. Not at twice it: runCli kills the run at
    // 11 s, before twice 6 s and far after 6 s plus a busy machine's start-up, so a run that
    // ends by itself, exit 4, ended at the first expiry.
    const started = Date.now();
    const result = await runCli(['run', tmp.write('tls-hang.http', `GET https://${silent.url}/\n`), '--timeout', '6000'], { env, timeoutMs: 11_000 });
    expect([result.code, result.signal]).toEqual([4, null]);
    expect(result.stderr).toMatch(/^reqflow: GET https:\/\/127\.0\.0\.1:\d+\/ timed out after 6000 ms\n/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(6000);
    expect(accepted).toBe(true); // the case is real: the client reached the silent server
  } finally {
    await silent.close();
  }
});
