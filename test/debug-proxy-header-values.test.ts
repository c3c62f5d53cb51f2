/**
 * `reqflow proxy` and a client's header values that reqflow would not send itself (docs/proxy.md,
 * docs/security.md): bytes past ASCII — which Node's parser admits, read as Latin-1 — got
 * forwarded, recorded in the history as the characters they may not be (`café` in UTF-8 as
 * `cafÃ©`, a raw 0x9B as U+009B, a terminal's CSI) and saved by `--save` into a `.http` file
 * `reqflow run` refuses. Now such a request gets `400` with one line saying which header, the
 * proxy prints a `proxy: refused` line, and nothing reaches the server or the history. The
 * value is never repeated (it may be a credential). Against a real server on 127.0.0.1 that
 * keeps the bytes of each request head it receives.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer as createNetServer, connect, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { startCli, type LiveCli } from './helpers/cli-live.js';
import { tempDir } from './helpers/cli.js';
import { historyFileFor, historyLines } from './helpers/history-file.js';

const SECRET = 'tök-secret-5e1f0a';

const tmp = tempDir('reqflow-proxy-header-values-');
const stateDir = join(tmp.dir, 'state');
const projectDir = join(tmp.dir, 'project');
/** The request heads the server received, as bytes (Latin-1: one character a byte). */
const heads: string[] = [];
let upstream: Server;
let upstreamPort = 0;
let proxy: LiveCli;
let proxyPort = 0;

beforeAll(async () => {
  upstream = createNetServer((socket) => {
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      heads.push(received.subarray(0, end).toString('latin1'));
      received = received.subarray(end + 4);
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamPort = (upstream.address() as AddressInfo).port;
  tmp.write('project/.profiles.json', '[]');
  proxy = startCli(['proxy', '--port', '0'], { cwd: projectDir, env: { REQFLOW_STATE_DIR: stateDir }, timeoutMs: 120_000 });
  const [, port] = await proxy.waitForStdout(/proxy: listening on http:\/\/127\.0\.0\.1:(\d+) /, 30_000);
  proxyPort = Number(port);
});

afterAll(async () => {
  proxy?.kill('SIGKILL');
  await proxy?.done;
  await new Promise((resolve) => upstream.close(resolve));
  tmp.cleanup();
});

/** One request to the proxy in absolute form, its header line written as the bytes `header`: the status line and body the client got. */
function rawRequest(header: Buffer): Promise<{ status: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxyPort, '127.0.0.1', () => {
      const target = `http://127.0.0.1:${upstreamPort}/p`;
      socket.write(Buffer.concat([Buffer.from(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${upstreamPort}\r\n`), header, Buffer.from('\r\nConnection: close\r\n\r\n')]));
    });
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: answer.split('\r\n')[0] ?? '', body: answer.slice(answer.indexOf('\r\n\r\n') + 4) }));
  });
}

const bytes = (...parts: Array<string | number[]>): Buffer => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));

describe('a header value reqflow would not send', () => {
  test.each([
    ['UTF-8 past ASCII', 'X-Name', bytes('X-Name: café')],
    ['a raw C1 byte (0x9B, CSI)', 'X-Color', bytes('X-Color: a', [0x9b], '31m')],
    ['a credential with a byte past ASCII', 'Authorization', bytes(`Authorization: Bearer ${SECRET}`)],
  ])('%s: 400 naming the header, a "proxy: refused" line, nothing forwarded nor recorded', async (_what, name, header) => {
    const before = heads.length;
    const answer = await rawRequest(header);
    expect(answer).toEqual({ status: 'HTTP/1.1 400 Bad Request', body: `reqflow proxy: header ${name} holds a byte past ASCII: not forwarded (header values are ASCII: percent-encode it)\n` });
    await proxy.waitForStderr(new RegExp(`proxy: refused GET 127\\.0\\.0\\.1:${upstreamPort}: 400, header ${name} holds a byte past ASCII \\(header values are ASCII\\)`));
    expect(heads.length).toBe(before);
  });

  test('a control character is refused by Node\'s parser before the proxy sees it: 400, not forwarded', async () => {
    const before = heads.length;
    expect((await rawRequest(bytes('X-Ctl: a', [0x01], 'b'))).status).toBe('HTTP/1.1 400 Bad Request');
    expect((await rawRequest(bytes('X-Del: a', [0x7f], 'b'))).status).toBe('HTTP/1.1 400 Bad Request');
    expect(heads.length).toBe(before);
  });

  test('the same header in ASCII is forwarded and recorded; the refused ones left no entry and the secret is nowhere', async () => {
    const answer = await rawRequest(bytes('X-Name: caf%C3%A9'));
    expect(answer).toEqual({ status: 'HTTP/1.1 200 OK', body: 'ok' });
    expect(heads.at(-1)).toContain('\r\nX-Name: caf%C3%A9\r\n');
    await proxy.waitForStdout(/GET http:\/\/127\.0\.0\.1:\d+\/p {2}200 /);
    const path = historyFileFor(stateDir, projectDir);
    let entries = historyLines(path).entries;
    for (let i = 0; i < 100 && entries.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      entries = historyLines(path).entries;
    }
    expect(entries.map((entry) => entry.request.headers['X-Name'])).toEqual(['caf%C3%A9']);
    expect(proxy.stdout() + proxy.stderr()).not.toContain('secret-5e1f0a');
  });
});
