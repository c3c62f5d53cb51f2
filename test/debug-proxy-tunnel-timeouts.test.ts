/**
 * `reqflow proxy`'s CONNECT tunnels are bounded in time, as its exchanges are: a server that does
 * not take the connection within `--timeout` gets the client a `502` (a host that drops the SYN
 * held it for the kernel's two minutes), and a tunnel through which nothing passes either way for
 * `--tunnel-idle` is closed (idle clients held two sockets each for ever). Bytes going either way
 * keep a tunnel open. Real servers on 127.0.0.1; the silent one is a server process stopped with
 * its accept queue full, so the kernel drops further SYNs.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './helpers/cli.js';
import { startCli, type LiveCli } from './helpers/cli-live.js';
import { connectAnswer } from './helpers/proxy-connect.js';

const IDLE_MS = 1_500;
const TIMEOUT_MS = 1_000;
const tmp = tempDir('reqflow-proxy-tunnel-timeouts-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
const servers: Server[] = [];
let proxy: LiveCli;
let proxyPort = 0;

/** A TCP server on a free port; `onSocket` says what it does with each connection. */
async function tcpServer(onSocket: (socket: Socket) => void): Promise<number> {
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    onSocket(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

/** A tunnel through the proxy to `port`, once the proxy said `200`. */
async function tunnelTo(port: number): Promise<Socket> {
  const socket = connect(proxyPort, '127.0.0.1', () => socket.write(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`));
  socket.on('error', () => undefined);
  const head = await new Promise<string>((resolve, reject) => {
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString()));
    socket.once('close', () => reject(new Error('closed before the proxy answered')));
  });
  expect(head).toMatch(/^HTTP\/1\.1 200 Connection established\r\n/);
  return socket;
}

beforeAll(async () => {
  tmp.write('project/.profiles.json', '[]');
  proxy = startCli(['proxy', '--port', '0', '--no-history', '--timeout', String(TIMEOUT_MS), '--tunnel-idle', String(IDLE_MS)], { cwd: join(tmp.dir, 'project'), env, timeoutMs: 120_000 });
  proxyPort = Number((await proxy.waitForStdout(/proxy: listening on http:\/\/127\.0\.0\.1:(\d+) /, 30_000))[1]);
}, 60_000);

afterAll(async () => {
  proxy?.kill('SIGKILL');
  await proxy?.done;
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  tmp.cleanup();
});

describe('reqflow proxy: an idle tunnel is closed', () => {
  // Bytes every 100 ms for 2.5 s (longer than the idle time), each way and both: the tunnel stays
  // open through them, then is closed once they stop, with a line saying why. The gaps are a
  // fifteenth of the idle time, so a busy machine's late timers do not make a silence of them.
  test.each<[string, 'echo' | 'ticker' | 'sink']>([
    ['both ways (an echo server)', 'echo'],
    ['only from the server', 'ticker'],
    ['only from the client', 'sink'],
  ])('bytes %s keep it open; silence closes it', async (_label, kind) => {
    const TICKS = 25;
    const GAP_MS = 100;
    /** performance.now() when this process last put a byte into the tunnel, from either end: the proxy saw it no earlier. */
    let lastSent = 0;
    const port = await tcpServer((socket) => {
      if (kind === 'echo') socket.pipe(socket);
      if (kind === 'sink') socket.resume();
      if (kind === 'ticker') {
        let sent = 0;
        const timer = setInterval(() => {
          socket.write('t');
          lastSent = performance.now();
          if (++sent === TICKS) clearInterval(timer);
        }, GAP_MS);
        socket.on('close', () => clearInterval(timer));
      }
    });
    const tunnel = await tunnelTo(port);
    let received = '';
    tunnel.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise<number>((resolve) => tunnel.once('close', () => resolve(performance.now())));
    let sent = 0;
    let closedEarly = false;
    void closed.then(() => (closedEarly = sent < TICKS));
    if (kind !== 'ticker') {
      while (sent < TICKS && !tunnel.destroyed) {
        tunnel.write('p');
        lastSent = performance.now();
        sent++;
        await new Promise((resolve) => setTimeout(resolve, GAP_MS));
      }
    } else {
      while (received.length < TICKS && !tunnel.destroyed) await new Promise((resolve) => setTimeout(resolve, 50));
      sent = TICKS;
    }
    expect(closedEarly).toBe(false);
    // The last echo or tick: waited for (bounded), not assumed to have come within a fixed time.
    for (let i = 0; i < 500 && kind !== 'sink' && received.length < TICKS && !tunnel.destroyed; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received.length).toBe(kind === 'sink' ? 0 : TICKS);
    // Then nothing passes: the proxy closes the tunnel, not before the idle time. Counted from the
    // last byte sent, which the proxy relayed no earlier, so a busy machine only makes it longer.
    const at = await closed;
    expect(at - lastSent).toBeGreaterThanOrEqual(IDLE_MS - 50); // a timer may fire a hair early
    await proxy.waitForStdout(new RegExp(`CONNECT 127\\.0\\.0\\.1:${port} {2}tunnel {2}↑ [^\\n]*\\(closed: nothing passed for ${IDLE_MS} ms\\)`), 20_000);
  }, 60_000);
});

describe('reqflow proxy: a tunnel whose server does not take the connection', () => {
  let stopped: ChildProcess | undefined;
  const fill: Socket[] = [];

  afterAll(() => {
    fill.forEach((socket) => socket.destroy());
    stopped?.kill('SIGKILL');
  });

  test('gets 502 after --timeout, not the kernel\'s two minutes', async () => {
    // A server with an accept queue of one, stopped: once the queue is full the kernel drops SYNs.
    stopped = spawn(process.execPath, ['-e', "const s = require('net').createServer(); s.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => process.stdout.write(s.address().port + '\\n'))"], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = Number(await new Promise<string>((resolve) => stopped?.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()))));
    stopped.kill('SIGSTOP');
    for (let i = 0; i < 4; i++) fill.push(connect(port, '127.0.0.1').on('error', () => undefined));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The same kind of connection the proxy will make does not get through: the case is real.
    const probe = connect({ port, host: '127.0.0.1', timeout: 500 }).on('error', () => undefined);
    const probed = await new Promise<string>((resolve) => {
      probe.once('connect', () => resolve('connected'));
      probe.once('timeout', () => resolve('silent'));
    });
    probe.destroy();
    expect(probed).toBe('silent');

    const started = performance.now();
    const answer = await connectAnswer(proxyPort, `127.0.0.1:${port}`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(answer).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/);
    expect(answer).toContain(`reqflow proxy: CONNECT https://127.0.0.1:${port}/ timed out after ${TIMEOUT_MS} ms\n`);
    await proxy.waitForStdout(new RegExp(`CONNECT 127\\.0\\.0\\.1:${port} {2}502 [^\\n]*timed out after ${TIMEOUT_MS} ms`), 20_000);
  }, 60_000);
});
