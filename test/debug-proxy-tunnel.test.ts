/**
 * `reqflow proxy` and https: the client opens a CONNECT tunnel through it to a local https
 * server (test CA), the TLS session runs end to end inside it (the proxy never decrypts), and
 * the proxy prints one tunnel line — where to, bytes each way, how long — and records nothing.
 */
import { afterAll, beforeAll, expect } from '@jest/globals';
import { rmSync } from 'node:fs';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { makeCerts, type TestCerts } from './helpers/certs.js';
import { runCli, tempDir } from './helpers/cli.js';
import { startCli, type LiveCli } from './helpers/cli-live.js';
import { connectAnswer } from './helpers/proxy-connect.js';
import { historyFileFor, historyLines } from './helpers/history-file.js';
import { needs } from './helpers/system-programs.js';
import { startTlsServer, type TlsServer } from './servers/tls-server.js';

// Skipped without openssl: the https server's certificate is made by openssl (helpers/certs.ts).
const { describe, test } = needs(['openssl']);

const tmp = tempDir('reqflow-debug-proxy-tls-');
const stateDir = join(tmp.dir, 'state');
const env = { REQFLOW_STATE_DIR: stateDir };
let certs: TestCerts;
let server: TlsServer;
let proxy: LiveCli;
let proxyUrl = '';

beforeAll(async () => {
  certs = makeCerts();
  server = await startTlsServer({ cert: certs.server.cert, key: certs.server.key });
  tmp.write('project/.profiles.json', '[]');
  tmp.write('client/.profiles.json', JSON.stringify([{ name: 'default', tls: { caFile: certs.ca.cert } }]));
  proxy = startCli(['proxy', '--port', '0'], { cwd: join(tmp.dir, 'project'), env, timeoutMs: 120_000 });
  proxyUrl = (await proxy.waitForStdout(/proxy: listening on (http:\/\/127\.0\.0\.1:\d+) /, 30_000))[1] as string;
}, 120_000);

afterAll(async () => {
  proxy?.kill('SIGKILL');
  await proxy?.done;
  await server?.close();
  if (certs) rmSync(certs.dir, { recursive: true, force: true });
  tmp.cleanup();
});

describe('reqflow proxy: CONNECT', () => {
  test('tunnels https end to end and prints the tunnel', async () => {
    const sent = await runCli(['send', '--no-history', '-x', proxyUrl, `${server.url}/`], { cwd: join(tmp.dir, 'client'), env });
    expect(sent.code).toBe(0);
    expect(JSON.parse(sent.stdout)).toEqual({ client: null, authorized: false });
    const [, up, down] = await proxy.waitForStdout(new RegExp(`CONNECT 127\\.0\\.0\\.1:${server.port} {2}tunnel {2}↑ (\\d+(?:\\.\\d)? k?B) {2}↓ (\\d+(?:\\.\\d)? k?B) {2}\\d+`));
    // A TLS handshake and a request each way: more than nothing, and the certificate makes the way down the larger.
    expect(up).not.toBe('0 B');
    expect(down).not.toBe('0 B');
    // Tunnels are not exchanges the proxy can see: nothing recorded.
    expect(historyLines(historyFileFor(stateDir, join(tmp.dir, 'project'))).entries).toEqual([]);
  });

  test('a tunnel to a closed port answers 502 with the reason', async () => {
    const spare = createNetServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', () => resolve()));
    const port = (spare.address() as AddressInfo).port;
    await new Promise((resolve) => spare.close(resolve));
    const answer = await connectAnswer(Number(new URL(proxyUrl).port), `127.0.0.1:${port}`);
    expect(answer).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/);
    expect(answer).toContain(`reqflow proxy: connection refused by 127.0.0.1:${port}\n`);
    await proxy.waitForStdout(new RegExp(`CONNECT 127\\.0\\.0\\.1:${port} {2}502 `));
  });

  test('Ctrl-C closes the tunnels that are still open', async () => {
    // A tunnel left open: the proxy must still stop.
    const socket = connect(Number(new URL(proxyUrl).port), '127.0.0.1', () => socket.write(`CONNECT 127.0.0.1:${server.port} HTTP/1.1\r\n\r\n`));
    socket.on('error', () => undefined);
    const closed = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.once('data', resolve));
    proxy.kill('SIGINT');
    const result = await proxy.done;
    await closed;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/proxy: stopped after 0 exchanges and [12] tunnels?/);
  });
});
