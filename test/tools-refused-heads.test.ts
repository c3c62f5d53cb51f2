/**
 * A request head Node's parser refuses — a control character in a header, `Content-Length` with
 * `Transfer-Encoding` (request smuggling), two `Content-Length`s, a head over 16 KiB — sent to
 * `reqflow proxy` or to `reqflow mock --log` (docs/proxy.md, docs/mock.md): the client gets
 * Node's own answer (400, 431), nothing is forwarded, and the tool's log says so in one line
 * that never repeats the client's bytes (they may hold a credential, or an escape sequence).
 * Before, Node answered on its own and the log said nothing. Real servers on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { startCli, type LiveCli } from './helpers/cli-live.js';
import { tempDir } from './helpers/cli.js';

const tmp = tempDir('reqflow-refused-heads-');
let upstream: Server;
let upstreamPort = 0;
let forwarded = 0;
let proxy: LiveCli;
let proxyPort = 0;
let mock: LiveCli;
let mockPort = 0;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    forwarded++;
    res.end('ok');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamPort = (upstream.address() as AddressInfo).port;
  tmp.write('.profiles.json', '[]');
  tmp.write('api.mock.yaml', 'routes:\n  - {method: GET, path: /p, body: ok}\n');
  proxy = startCli(['proxy', '--port', '0', '--no-history'], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: `${tmp.dir}/state` }, timeoutMs: 120_000 });
  mock = startCli(['mock', 'api.mock.yaml', '--port', '0', '--log', '--no-watch'], { cwd: tmp.dir, timeoutMs: 120_000 });
  proxyPort = Number((await proxy.waitForStdout(/proxy: listening on http:\/\/127\.0\.0\.1:(\d+) /, 30_000))[1]);
  mockPort = Number((await mock.waitForStdout(/mock: listening on http:\/\/127\.0\.0\.1:(\d+) /, 30_000))[1]);
});

afterAll(async () => {
  proxy?.kill('SIGKILL');
  mock?.kill('SIGKILL');
  await Promise.all([proxy?.done, mock?.done]);
  await new Promise((resolve) => upstream.close(resolve));
  tmp.cleanup();
});

/** `head` written as bytes to `port`: the status line the client got, and its local port (the log names it). */
function send(port: number, head: Buffer): Promise<{ status: string; from: number }> {
  return new Promise((resolve, reject) => {
    let from = 0;
    const socket = connect(port, '127.0.0.1', () => {
      from = socket.localPort ?? 0;
      socket.write(head);
    });
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    // Node closes the connection as it answers: a reset after the answer came is no failure.
    socket.on('error', (error) => void (answer === '' && reject(error)));
    socket.on('close', () => resolve({ status: answer.split('\r\n')[0] ?? '', from }));
  });
}

const SECRET = 'Bearer s3cr3t-7f1c9a';
const target = (): string => `http://127.0.0.1:${upstreamPort}/p`;
const cases: Array<[string, () => Buffer, string, string]> = [
  ['a control character (0x01) in a header', () => Buffer.from(`GET ${target()} HTTP/1.1\r\nHost: x\r\nAuthorization: ${SECRET}\x01\r\n\r\n`, 'latin1'), '400 Bad Request', "400, not HTTP Node's parser reads (Invalid header value char)"],
  ['an escape sequence (ESC) in a header', () => Buffer.from(`GET ${target()} HTTP/1.1\r\nHost: x\r\nX-T: \x1b]0;owned\x07\r\n\r\n`, 'latin1'), '400 Bad Request', "400, not HTTP Node's parser reads (Invalid header value char)"],
  ['Content-Length with Transfer-Encoding (smuggling)', () => Buffer.from(`POST ${target()} HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`), '400 Bad Request', "400, not HTTP Node's parser reads (Transfer-Encoding can't be present with Content-Length)"],
  ['two Content-Lengths', () => Buffer.from(`POST ${target()} HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab`), '400 Bad Request', "400, not HTTP Node's parser reads (Duplicate Content-Length)"],
  ['a head over 16 KiB', () => Buffer.from(`GET ${target()} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`), '431 Request Header Fields Too Large', '431, its head is over 16 KiB'],
];

describe.each([
  ['proxy', () => proxyPort, () => proxy, 'proxy: refused'],
  ['mock --log', () => mockPort, () => mock, 'mock: refused'],
])('%s', (_tool, port, cli, prefix) => {
  test.each(cases)('%s: Node\'s answer, and one line in the log naming the client', async (_what, head, status, why) => {
    const before = forwarded;
    const answer = await send(port(), head());
    expect(answer.status).toBe(`HTTP/1.1 ${status}`);
    const [line] = await cli().waitForStderr(new RegExp(`${prefix} a request from 127\\.0\\.0\\.1:${answer.from}: .*`), 15_000);
    expect(line).toBe(`${prefix} a request from 127.0.0.1:${answer.from}: ${why}`);
    expect(forwarded).toBe(before);
  });

  test('the log never repeats what the client sent', () => {
    expect(cli().stderr()).not.toContain('s3cr3t');
    expect(cli().stderr()).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  });
});
