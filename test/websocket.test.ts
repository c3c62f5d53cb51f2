/**
 * WebSocket requests in JetBrains' form (`WEBSOCKET url`, `===` between messages, `===
 * wait-for-server`) against real `ws` servers on 127.0.0.1, plain and over TLS with the test
 * CA: messages sent in order and only after the replies the script waits for, the profile's
 * bearer token in the upgrade, each received message printed (one event record in `-o json`),
 * `--max-events`, an abnormal close (exit 4), a refused upgrade shown as the response it is.
 */
import { afterAll, beforeAll, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { makeCerts, type TestCerts } from './helpers/certs.js';
import { runCli, tempDir } from './helpers/cli.js';
import { parseRecords } from './helpers/records.js';
import { needs } from './helpers/system-programs.js';

// Skipped without openssl: its wss:// server uses certificates made by openssl (helpers/certs.ts).
const { describe, test } = needs(['openssl']);

/** What the servers saw, in order: `open <auth>`, `in <text>`, `out <text>`. */
const log: string[] = [];
/** Every frame the servers received: `text <hex>` or `binary <hex>`. */
const frames: string[] = [];
/** The subprotocols each upgrade offered. */
const offered: Array<string | undefined> = [];
let plain: WebSocketServer;
let tls: WebSocketServer;
let https: HttpsServer;
let certs: TestCerts;
let wsUrl = '';
let wssUrl = '';
const tmp = tempDir('reqflow-ws-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

function serve(socket: WebSocket, path: string, auth: string | undefined): void {
  log.push(`open ${auth ?? '-'}`);
  const send = (text: string): void => {
    log.push(`out ${text}`);
    socket.send(text);
  };
  if (path === '/broken') return void setTimeout(() => socket.close(1011, 'internal error'), 20);
  if (path === '/ticker') {
    let n = 0;
    const timer = setInterval(() => send(JSON.stringify({ tick: (n += 1) })), 10);
    socket.on('close', () => clearInterval(timer));
    return;
  }
  if (path !== '/quiet') send('welcome');
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    frames.push(`${isBinary ? 'binary' : 'text'} ${data.toString('hex')}`);
    const text = data.toString('utf8');
    log.push(`in ${text}`);
    if (text === 'bye') return void socket.close(1000, 'bye');
    // The reply comes later: a client that did not wait would send its next message first.
    setTimeout(() => send(`echo ${text}`), 40);
  });
}

beforeAll(async () => {
  certs = makeCerts();
  plain = new WebSocketServer({ host: '127.0.0.1', port: 0, verifyClient: (info: { req: { url?: string } }) => info.req.url !== '/private' });
  plain.on('connection', (socket, req) => {
    offered.push(req.headers['sec-websocket-protocol']);
    serve(socket, req.url ?? '', req.headers.authorization);
  });
  await new Promise<void>((resolve) => plain.once('listening', () => resolve()));
  wsUrl = `ws://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  https = createHttpsServer({ cert: readFileSync(certs.server.cert), key: readFileSync(certs.server.key) });
  tls = new WebSocketServer({ server: https });
  tls.on('connection', (socket, req) => serve(socket, req.url ?? '', req.headers.authorization));
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  wssUrl = `wss://127.0.0.1:${(https.address() as AddressInfo).port}`;
  tmp.write('.profiles.json', JSON.stringify({ profiles: [{ name: 'default', auth: { type: 'bearer' }, variables: { token: 'ws-t0ken-secret' }, tls: { caFile: certs.ca.cert } }] }));
});
afterAll(async () => {
  for (const server of [plain, tls]) for (const client of server.clients) client.terminate();
  await Promise.all([new Promise((resolve) => plain.close(resolve)), new Promise((resolve) => https.close(resolve))]);
  certs.cleanup();
  tmp.cleanup();
});

const run = (name: string, text: string, ...args: string[]) => runCli(['run', tmp.write(name, text.replaceAll('WSS', wssUrl).replaceAll('WS', wsUrl)), ...args], { cwd: tmp.dir, env });

describe.each([['ws://', 'WS'], ['wss:// with the profile\'s CA', 'WSS']])('over %s', (_what, base) => {
  test('messages go in order, each after the reply the script waits for; the token is in the upgrade; ends when the script is done', async () => {
    log.length = 0;
    const result = await run('chat.http', `WEBSOCKET ${base}/chat\n\n===\n{"hello": 1}\n=== wait-for-server\n=== wait-for-server\nsecond\n=== wait-for-server\n`, '-o', 'json');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(log).toEqual(['open Bearer ws-t0ken-secret', 'out welcome', 'in {"hello": 1}', 'out echo {"hello": 1}', 'in second', 'out echo second']);
    const records = parseRecords(result.stdout);
    expect(records.filter((r) => r.type === 'event').map((r) => r.data)).toEqual(['welcome', 'echo {"hello": 1}', 'echo second']);
    expect(records.at(-1)).toMatchObject({ type: 'end', events: 3 });
  });
});

test('pretty output prints each message as it arrives (JSON pretty-printed); -v masks the token', async () => {
  const result = await run('ticker.http', 'WEBSOCKET WS/ticker\n', '--max-events', '2', '-v');
  expect(result.code).toBe(0);
  expect(result.stdout).toBe('{\n  "tick": 1\n}\n{\n  "tick": 2\n}\n');
  expect(result.stderr).toContain('Authorization: •••');
  expect(result.stderr).not.toContain('ws-t0ken-secret');
});

test('the server closes with 1011: exit 4 with the code and reason, after the messages that came', async () => {
  const result = await run('broken.http', 'WEBSOCKET WS/broken\n');
  expect(result.code).toBe(4);
  expect(result.stderr).toMatch(/reqflow: the stream broke off after 0 events: the WebSocket to 127\.0\.0\.1:\d+ closed with 1011 internal error\n/);
});

test('the server refuses the upgrade: the refusal is shown as the HTTP response it is (exit 1)', async () => {
  const result = await run('private.http', 'WEBSOCKET WS/private\n', '-o', 'json');
  expect(result.code).toBe(1);
  expect(parseRecords(result.stdout)[0]).toMatchObject({ type: 'response', status: 401 });
});

test('a server that answers the upgrade with a 200 refused it too: shown as that response, exit 1, no message sent', async () => {
  const { createServer } = await import('node:net');
  const received: string[] = [];
  const server = createServer((socket) => {
    socket.on('data', (data) => {
      received.push(data.toString('latin1'));
      socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
    const result = await run('ok200.http', `WEBSOCKET ${url}\n\n===\n{"op":"subscribe"}\n=== wait-for-server\n`, '-o', 'json');
    expect(result.code).toBe(1);
    expect(parseRecords(result.stdout)[0]).toMatchObject({ type: 'response', status: 200 });
    expect(received.join('')).not.toContain('subscribe');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a header value past ASCII is exit 2 naming the request and the header, no upgrade sent, as for an HTTP request (it went out in Latin-1)', async () => {
  log.length = 0;
  const result = await run('accent.http', 'WEBSOCKET WS/broken\nX-Name: café\n');
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/^reqflow: accent\.http:1: GET ws:\/\/127\.0\.0\.1:\d+\/broken: header "X-Name" cannot be sent: its value holds a character past ASCII \(U\+00E9\)\n/);
  expect(log).toEqual([]);
});

test('nobody listening: exit 4, connection refused', async () => {
  const result = await run('down.http', 'WEBSOCKET ws://127.0.0.1:9/x\n');
  expect(result.code).toBe(4);
  expect(result.stderr).toMatch(/^reqflow: connection refused by 127\.0\.0\.1:9\n/);
});

describe('restcli .ws files', () => {
  test('messages with their types go in order, < waits for a reply, {{templates}} resolved, the subprotocol offered', async () => {
    log.length = 0;
    offered.length = 0;
    const file = tmp.write(
      'chat.ws',
      'WEBSOCKET WS/quiet\nX-Room: {{room}}\n# @subprotocol chat.v1\n\n### Hello\n# @type json\n> {"hello": "{{room}}"}\n<\n\n### Multi-line\n> line one\nline two\n<\n\n### Bye\n> bye\n'.replaceAll('WS', wsUrl),
    );
    const result = await runCli(['run', file, '-e', 'room=blue', '-o', 'json'], { cwd: tmp.dir, env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(log).toEqual(['open Bearer ws-t0ken-secret', 'in {"hello": "blue"}', 'out echo {"hello": "blue"}', 'in line one\nline two', 'out echo line one\nline two', 'in bye']);
    expect(parseRecords(result.stdout).filter((r) => r.type === 'event').map((r) => r.data)).toEqual(['echo {"hello": "blue"}', 'echo line one\nline two']);
    expect(offered).toEqual(['chat.v1']);
  });

  test('a # @type json message that is not JSON is exit 2 naming the file line; a bad file is a parse error', async () => {
    const bad = tmp.write('bad-json.ws', `WEBSOCKET ${wsUrl}/chat\n\n### Broken\n# @type json\n> {not json}\n<\n`);
    const opened = log.filter((line) => line.startsWith('open')).length;
    const result = await runCli(['run', bad], { cwd: tmp.dir, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/bad-json\.ws:5: message "Broken" is # @type json but not JSON/);
    // Checked before the upgrade: exit 2 is "not sent", so no connection was opened either.
    expect(log.filter((line) => line.startsWith('open')).length).toBe(opened);
    const noUrl = await runCli(['run', tmp.write('no-url.ws', 'GET http://x\n')], { cwd: tmp.dir, env });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/no-url\.ws:1:1: expected "WEBSOCKET url"/);
  });

  test('# @timeout at < : no reply in time is exit 4', async () => {
    const file = tmp.write('silent.ws', `WEBSOCKET ${wsUrl}/broken-never\n\n### First\n> x\n<\n\n### Wait\n# @timeout 0.3\n<\n<\n`);
    const result = await runCli(['run', file], { cwd: tmp.dir, env });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/no message from the server within 300 ms/);
  });
});

describe('messages from files', () => {
  test('< ./file sends its bytes exactly: a text frame when they are UTF-8, binary otherwise; <@ resolves variables; a file\'s own === lines never split it', async () => {
    const bytes = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x0a, 0x3d, 0x3d, 0x3d, 0x0a, 0x7f]); // not UTF-8, with a "===" line inside
    tmp.write('blob.bin', bytes);
    tmp.write('hello.json', '{"hello": "wörld"}\n===\n{"still": "one message"}');
    tmp.write('template.txt', 'hi {{who}}');
    frames.length = 0;
    const result = await run('files.http', 'WEBSOCKET WS/files\n\nfirst\n===\n< ./blob.bin\n===\n< ./hello.json\n===\n<@ ./template.txt\n=== wait-for-server\n=== wait-for-server\n=== wait-for-server\n=== wait-for-server\n=== wait-for-server\n', '-e', 'who=reqflow', '-o', 'json');
    expect(result.code).toBe(0);
    expect(frames).toEqual([
      `text ${Buffer.from('first').toString('hex')}`,
      `binary ${bytes.toString('hex')}`,
      `text ${Buffer.from('{"hello": "wörld"}\n===\n{"still": "one message"}').toString('hex')}`,
      `text ${Buffer.from('hi reqflow').toString('hex')}`,
    ]);
  });

  test('a missing message file is exit 2 naming it and its line', async () => {
    const result = await run('missing.http', 'WEBSOCKET WS/files\n\n< ./nowhere.bin\n');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot read the body file \.\/nowhere\.bin \(.*missing\.http:3\): no such file/);
  });
});
