/**
 * httpyac's `# @proxy`, `# @noProxy`, `# @ratelimit` and `# @keepStreaming`, each run as a .http
 * file against real servers on 127.0.0.1 — a recording forward/CONNECT proxy (the `proxy`
 * package), a recording HTTP server, a TLS server, a `ws` server — asserting what they received
 * and the exit code. Each was an unknown annotation: warned about, and the request sent otherwise
 * than the file says (direct, through the environment's proxy, unpaced, closed early).
 */
import { afterAll, beforeAll, expect } from '@jest/globals';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createProxy } from 'proxy';
import { WebSocketServer } from 'ws';
import { makeCerts, type TestCerts } from './helpers/certs.js';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';
import { startTlsServer, type TlsServer } from './servers/tls-server.js';
import { needs } from './helpers/system-programs.js';
import { closedPort } from './helpers/oauth-fixture.js';

// Skipped without openssl: the TLS target uses certificates made by openssl (helpers/certs.ts).
const { describe, test } = needs(['openssl']);

const PASSWORD = 'pr0xy-s3cret-pw';
const tmp = tempDir('reqflow-httpyac-annotations-');
const state = join(tmp.dir, 'state');
let target: Recorder;
let tlsTarget: TlsServer;
let certs: TestCerts;
let proxy: Server;
let proxyPort = 0;
let ws: WebSocketServer;
let wsUrl = '';
/** What the proxy was asked: `GET url`, `CONNECT host:port`, with the credentials it got. */
const proxied: string[] = [];
/** When each request reached the target (performance.now() of this process), by path. */
const arrivals: Array<{ path: string; at: number }> = [];

beforeAll(async () => {
  certs = makeCerts();
  target = await startRecorder((req, res) => {
    arrivals.push({ path: req.url ?? '', at: performance.now() });
    res.end('ok');
  });
  tlsTarget = await startTlsServer({ cert: certs.server.cert, key: certs.server.key });
  proxy = createProxy(createHttpServer());
  const auth = (req: IncomingMessage): string => (req.headers['proxy-authorization'] ? ' (with credentials)' : '');
  proxy.on('request', (req: IncomingMessage) => proxied.push(`${req.method} ${req.url}${auth(req)}`));
  proxy.on('connect', (req: IncomingMessage) => proxied.push(`CONNECT ${req.url}${auth(req)}`));
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyPort = (proxy.address() as AddressInfo).port;
  ws = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  // One reply to the message, a second one later, then a normal close: a client that stops
  // listening after its last `=== wait-for-server` never sees the second.
  ws.on('connection', (socket) => {
    socket.on('message', () => {
      socket.send('first');
      setTimeout(() => {
        socket.send('second');
        socket.close(1000);
      }, 300);
    });
  });
  await new Promise<void>((resolve) => ws.once('listening', () => resolve()));
  wsUrl = `ws://127.0.0.1:${(ws.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  for (const client of ws.clients) client.terminate();
  await new Promise((resolve) => ws.close(resolve));
  await target.close();
  await tlsTarget.close();
  certs.cleanup();
  tmp.cleanup();
});

const run = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(['run', ...args], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: state, ...env } });

/** Every file reqflow wrote under its state folder (history, session), as text. */
function stateText(folder = state): string {
  let text = '';
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    text += statSync(path).isDirectory() ? stateText(path) : readFileSync(path, 'utf8');
  }
  return text;
}

describe('# @proxy and # @noProxy (httpyac)', () => {
  test('the request with # @proxy goes through that proxy, the next one without it goes direct; the credentials are never shown', async () => {
    const file = tmp.write(
      'proxied.http',
      ['### via', `# @proxy {{proxyUrl}}`, `GET ${target.url}/via-proxy`, '', '### direct', `GET ${target.url}/direct`, ''].join('\n'),
    );
    const before = target.received.length;
    const result = await run([file, '-v', '-e', `proxyUrl=http://proxyuser:${PASSWORD}@127.0.0.1:${proxyPort}`]);
    expect(result.stderr).not.toMatch(/unknown annotation/);
    expect(result.code).toBe(0);
    expect(proxied).toEqual([`GET ${target.url}/via-proxy (with credentials)`]);
    expect(target.received.slice(before).map((request) => request.url)).toEqual(['/via-proxy', '/direct']);
    expect(result.stderr).toContain(`reqflow: ${target.url} through the proxy http://proxyuser:•••@127.0.0.1:${proxyPort}/`);
    expect(result.stdout + result.stderr).not.toContain(PASSWORD);
    expect(stateText()).not.toContain(PASSWORD);
  });

  test('# @noProxy: direct although HTTPS_PROXY names a proxy; the request without it goes through', async () => {
    proxied.length = 0;
    const file = tmp.write('no-proxy.http', ['### proxied', `GET ${tlsTarget.url}/one`, '', '### direct', '# @noProxy', `GET ${tlsTarget.url}/two`, ''].join('\n'));
    const served = tlsTarget.clients.length;
    const result = await run([file, '-k'], { HTTPS_PROXY: `http://127.0.0.1:${proxyPort}` });
    expect(result.stderr).not.toMatch(/unknown annotation/);
    expect(result.code).toBe(0);
    expect(proxied).toEqual([`CONNECT 127.0.0.1:${tlsTarget.port}`]);
    expect(tlsTarget.clients.length).toBe(served + 2);
  });

  test('a proxy URL that is none is exit 2 naming the line, the credentials masked; nothing sent', async () => {
    proxied.length = 0;
    const file = tmp.write('bad-proxy.http', ['GET ' + target.url + '/never', `# @proxy ftp://user:${PASSWORD}@127.0.0.1:${proxyPort}`, ''].join('\n'));
    const before = target.received.length;
    const result = await run([file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`# @proxy of request "request-1" (${file}:2): unsupported proxy scheme "ftp"`);
    expect(result.stderr).not.toContain(PASSWORD);
    expect(target.received.length).toBe(before);
    expect(proxied).toEqual([]);
  });

  test('a # @proxy that refuses the connection is exit 4 naming the proxy, the hint naming # @proxy among the places a proxy is set', async () => {
    const file = tmp.write('refusing-proxy.http', ['# @proxy http://user:' + PASSWORD + '@127.0.0.1:' + String(await closedPort()), 'GET ' + target.url + '/never', ''].join('\n'));
    const before = target.received.length;
    const result = await run([file]);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/connection refused by the proxy http:\/\/user:•••@127\.0\.0\.1:\d+/);
    expect(result.stderr).toMatch(/hint: check the proxy: the request's # @proxy, --proxy/);
    expect(result.stderr).not.toContain(PASSWORD);
    expect(target.received.length).toBe(before);
  });

  test('# @noProxy with a value is exit 2 naming the line, nothing sent', async () => {
    const file = tmp.write('no-proxy-value.http', ['GET ' + target.url + '/never', '# @noProxy false', ''].join('\n'));
    const before = target.received.length;
    const result = await run([file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`# @noProxy "false" of request "request-1" (${file}:2): takes no value`);
    expect(target.received.length).toBe(before);
  });
});

describe('# @ratelimit (httpyac)', () => {
  // The idle times are long and the bounds checked far below them, so that a busy machine's
  // delays (the first request's connection, a late timer) cannot make the test miss: only "at least".
  test('minIdleTime: the next request of the slot waits for it', async () => {
    const file = tmp.write(
      'paced.http',
      [
        '### warm', `GET ${target.url}/paced-warm`, '',
        '### a', '# @ratelimit minIdleTime 1500', `GET ${target.url}/paced-a`, '',
        '### b', '# @ratelimit minIdleTime 1500', `GET ${target.url}/paced-b`, '',
      ].join('\n'),
    );
    const result = await run([file]);
    expect(result.stderr).not.toMatch(/unknown annotation/);
    expect(result.code).toBe(0);
    const at = (path: string): number => arrivals.find((arrival) => arrival.path === path)?.at ?? Number.NaN;
    expect(at('/paced-b') - at('/paced-a')).toBeGreaterThanOrEqual(1000);
  });

  test('slot, max and expire: a third request within expire waits for the first to expire', async () => {
    const file = tmp.write(
      'burst.http',
      [
        '### warm', `GET ${target.url}/burst-warm`, '',
        ...[1, 2, 3].flatMap((n) => [`### burst${n}`, '# @ratelimit slot burst max: 2 expire: 1500', `GET ${target.url}/burst-${n}`, '']),
      ].join('\n'),
    );
    const result = await run([file]);
    expect(result.code).toBe(0);
    const at = (path: string): number => arrivals.find((arrival) => arrival.path === path)?.at ?? Number.NaN;
    expect(at('/burst-3') - at('/burst-1')).toBeGreaterThanOrEqual(1000);
  });

  test.each([
    ['expire 100 max 2', 'expects [slot NAME] [minIdleTime MS] [max N expire MS], in that order'],
    ['max 2', 'max counts the requests within expire ms: give expire too'],
    ['slot api', 'sets no limit: give minIdleTime or max'],
  ])('# @ratelimit %s is exit 2 naming the line, nothing in the file sent', async (value, why) => {
    const file = tmp.write('bad-rate.http', ['### first', `GET ${target.url}/never-1`, '', '### second', `# @ratelimit ${value}`, `GET ${target.url}/never-2`, ''].join('\n'));
    const before = target.received.length;
    const result = await run([file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`# @ratelimit ${JSON.stringify(value)} of request "second" (${file}:5): ${why}`);
    expect(target.received.length).toBe(before);
  });
});

describe('# @keepStreaming (httpyac)', () => {
  test('a WebSocket script that ends waiting listens on until the server closes', async () => {
    const script = (keep: boolean): string => [`WEBSOCKET ${wsUrl}/chat`, ...(keep ? ['# @keepStreaming'] : []), '', '===', 'hello', '=== wait-for-server', ''].join('\n');
    const kept = await run([tmp.write('kept.http', script(true)), '-o', 'raw']);
    expect(kept.stderr).not.toMatch(/unknown annotation/);
    expect(kept.code).toBe(0);
    expect(kept.stdout.split('\n').filter(Boolean)).toEqual(['first', 'second']);
    // Without it, the script is done with its one reply (docs/streaming.md).
    const closed = await run([tmp.write('closed.http', script(false)), '-o', 'raw']);
    expect(closed.code).toBe(0);
    expect(closed.stdout.split('\n').filter(Boolean)).toEqual(['first']);
  });

  test('on a request that is no stream it is exit 2 naming the line, nothing sent', async () => {
    const file = tmp.write('keep-plain.http', [`GET ${target.url}/never`, '# @keepStreaming', ''].join('\n'));
    const before = target.received.length;
    const result = await run([file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`# @keepStreaming of request "request-1" (${file}:2): the request is no stream: it ends with its response`);
    expect(target.received.length).toBe(before);
  });
});
