/**
 * `reqflow proxy`: the built CLI as a proxy between clients (Node's http in absolute form,
 * `reqflow send -x`) and real servers on 127.0.0.1 — what the server received, what the client
 * got back, the lines printed, what the history recorded (secrets masked) and the `.http` files
 * `--save` wrote. The CONNECT tunnel to an https server is in debug-proxy-tunnel.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startCli, type LiveCli } from './helpers/cli-live.js';
import { historyFileFor, historyLines } from './helpers/history-file.js';
import type { HistoryEntry } from '../src/history/entry.js';

const TOKEN = 'tok-5f1d9a77c2e04b1b';
const API_KEY = 'key-83a0c6e1f4d2';
const PASSWORD = 'pw-hunter2-0c9e';
const PROXY_CREDENTIALS = Buffer.from('proxyuser:proxy-pass-77').toString('base64');

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const tmp = tempDir('reqflow-debug-proxy-');
const stateDir = join(tmp.dir, 'state');
const projectDir = join(tmp.dir, 'project');
const clientDir = join(tmp.dir, 'client');
const env = { REQFLOW_STATE_DIR: stateDir };
const received: Received[] = [];
let upstream: Server;
let upstreamUrl = '';
let proxy: LiveCli;
let proxyUrl = '';
let proxyPort = 0;

/** The server behind the proxy: records each request, answers with what it got (the secrets too, so masking is tested on echoed bodies). */
function startUpstream(): Promise<void> {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const answer = JSON.stringify({ method: req.method, url: req.url, authorization: req.headers.authorization ?? null, size: body.length, body: body.length < 1000 ? body.toString() : '' });
      // Connection names a field of this hop: the proxy must not pass it on to the client.
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(answer), Connection: 'X-Upstream-Hop', 'X-Upstream-Hop': 'only-for-the-proxy', 'X-End-To-End': 'yes' });
      res.end(answer);
    });
  });
  return new Promise((resolve) => upstream.listen(0, '127.0.0.1', () => resolve()));
}

/** A request in absolute form to the proxy, as an app with HTTP_PROXY sends it. */
function viaProxy(url: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: proxyPort, path: url, method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A port nothing listens on (bound, then released). */
async function deadPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The history entries once `count` of them are written (the proxy appends each as it ends; bounded wait). */
async function historyEntries(count: number): Promise<HistoryEntry[]> {
  const path = historyFileFor(stateDir, projectDir);
  for (let i = 0; i < 200; i++) {
    const { entries } = historyLines(path);
    if (entries.length >= count) return entries;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`fewer than ${count} history entries in ${path}`);
}

const firstSaved = (): string => `0001-get-127.0.0.1-${new URL(upstreamUrl).port}-users-42.http`;

beforeAll(async () => {
  await startUpstream();
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  tmp.write('project/.profiles.json', '[]');
  tmp.write('client/.profiles.json', '[]');
  // A file already where the first capture would go: --save must leave it alone.
  tmp.write(`project/captured/${firstSaved()}`, 'mine\n');
  proxy = startCli(['proxy', '--port', '0', '--save', 'captured'], { cwd: projectDir, env, timeoutMs: 120_000 });
  const [, url, port] = await proxy.waitForStdout(/proxy: listening on (http:\/\/127\.0\.0\.1:(\d+)) /, 30_000);
  proxyUrl = url as string;
  proxyPort = Number(port);
});

afterAll(async () => {
  proxy?.kill('SIGKILL');
  await proxy?.done;
  await new Promise((resolve) => upstream.close(resolve));
  tmp.cleanup();
});

describe('reqflow proxy', () => {
  test('says where it listens and how to use it', () => {
    expect(proxy.stdout()).toContain(`HTTP_PROXY=${proxyUrl}`);
    expect(proxy.stdout()).toContain(`curl -x ${proxyUrl}`);
  });

  test('forwards a GET: hop-by-hop fields and Proxy-Authorization dropped, Via added, end-to-end fields kept both ways', async () => {
    const answer = await viaProxy(`${upstreamUrl}/users/42?api_key=${API_KEY}&page=2`, {
      headers: {
        Authorization: `Bearer ${TOKEN}`,
        'Proxy-Authorization': `Basic ${PROXY_CREDENTIALS}`,
        Connection: 'keep-alive, X-Client-Hop',
        'X-Client-Hop': 'only-for-the-proxy',
        'Keep-Alive': 'timeout=5',
        TE: 'trailers',
        'X-Trace': 'abc',
      },
    });
    const got = received.at(-1) as Received;
    expect(got.method).toBe('GET');
    expect(got.url).toBe(`/users/42?api_key=${API_KEY}&page=2`);
    expect(got.headers.authorization).toBe(`Bearer ${TOKEN}`); // meant for the server: passed on
    expect(got.headers['x-trace']).toBe('abc');
    expect(got.headers.host).toBe(new URL(upstreamUrl).host);
    for (const name of ['proxy-authorization', 'x-client-hop', 'keep-alive', 'te']) expect(got.headers[name]).toBeUndefined();
    expect(got.headers.via).toBe(`1.1 ${new URL(proxyUrl).host} (reqflow)`);

    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ method: 'GET', authorization: `Bearer ${TOKEN}` });
    expect(answer.headers['x-end-to-end']).toBe('yes');
    expect(answer.headers['x-upstream-hop']).toBeUndefined();
    expect(answer.headers.via).toContain('(reqflow)');
    await proxy.waitForStdout(/GET http:\/\/127\.0\.0\.1:\d+\/users\/42\?api_key=•••&page=2 {2}200 {2}\d+ ms {2}\d+ B/);
  });

  test('forwards a POST from reqflow send -x, body and all', async () => {
    const body = JSON.stringify({ user: 'ada', password: PASSWORD });
    const sent = await runCli(['send', '--no-history', '-x', proxyUrl, 'POST', `${upstreamUrl}/login`, '--json', body], { cwd: clientDir, env });
    expect(sent.stderr).toMatch(/^HTTP\/1.1 200 OK/);
    expect(sent.code).toBe(0);
    const got = received.at(-1) as Received;
    expect(got.method).toBe('POST');
    expect(got.body.toString()).toBe(body);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers.via).toContain('(reqflow)');
    expect(JSON.parse(sent.stdout)).toMatchObject({ method: 'POST', url: '/login', body });
    await proxy.waitForStdout(/POST http:\/\/127\.0\.0\.1:\d+\/login {2}200 /);
  });

  test('takes reqflow\'s requests through HTTP_PROXY as any app\'s', async () => {
    const before = received.length;
    const sent = await runCli(['send', '--no-history', `${upstreamUrl}/health`], { cwd: clientDir, env: { ...env, HTTP_PROXY: proxyUrl } });
    expect(sent.code).toBe(0);
    expect(received.length).toBe(before + 1);
    expect((received.at(-1) as Received).headers.via).toContain('(reqflow)');
    await proxy.waitForStdout(/GET http:\/\/127\.0\.0\.1:\d+\/health {2}200 /);
  });

  test('streams a body larger than the history keeps, and keeps only its beginning', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 'abcdefgh');
    const answer = await viaProxy(`${upstreamUrl}/upload`, { method: 'PUT', headers: { 'Content-Type': 'text/plain', 'Content-Length': String(big.length) }, body: big });
    expect(JSON.parse(answer.body)).toMatchObject({ size: big.length });
    expect((received.at(-1) as Received).body.equals(big)).toBe(true);
    const entries = await historyEntries(4);
    const put = entries.find((entry) => entry.method === 'PUT') as HistoryEntry;
    expect(put.request).toMatchObject({ size: big.length, cut: true });
    expect(put.request.body?.length).toBe(64 * 1024);
  });

  test('a request not in proxy form gets a 400 page saying how to use the proxy', async () => {
    const answer = await viaProxy('/users/42');
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('is not a proxy request');
    expect(answer.body).toContain(`curl -x ${proxyUrl} http://example.com/`);
  });

  test('an upstream that is not there is a 502 with a one-line reason', async () => {
    const port = await deadPort();
    const answer = await viaProxy(`http://127.0.0.1:${port}/gone`);
    expect(answer.status).toBe(502);
    expect(answer.body).toBe(`reqflow proxy: connection refused by 127.0.0.1:${port}\n`);
    await proxy.waitForStdout(new RegExp(`GET http://127\\.0\\.0\\.1:${port}/gone {2}502 {2}\\d+ ms {2}\\(connection refused`));
  });

  test('records each exchange in the project\'s history, secrets masked, readable by reqflow history', async () => {
    const entries = await historyEntries(5);
    const get = entries.find((entry) => entry.url.includes('/users/42')) as HistoryEntry;
    expect(get).toMatchObject({ method: 'GET', name: `GET ${new URL(upstreamUrl).host}/users/42`, status: 200, profile: 'default' });
    expect(get.file.endsWith('(proxy)')).toBe(true);
    expect(get.url).toBe(`${upstreamUrl}/users/42?api_key=•••&page=2`);
    expect(get.request.headers.Authorization).toBe('•••');
    expect(get.request.headers['Proxy-Authorization']).toBeUndefined();
    const failed = entries.find((entry) => entry.url.endsWith('/gone')) as HistoryEntry;
    expect(failed.status).toBeUndefined();
    expect(failed.error?.message).toMatch(/^connection refused by 127\.0\.0\.1:\d+$/);

    // Echoed back by the server too: in the response body the values are scrubbed.
    const file = readFileSync(historyFileFor(stateDir, projectDir), 'utf8');
    for (const secret of [TOKEN, API_KEY, PASSWORD, PROXY_CREDENTIALS]) expect(file).not.toContain(secret);
    for (const secret of [TOKEN, API_KEY, PASSWORD, PROXY_CREDENTIALS]) expect(proxy.stdout() + proxy.stderr()).not.toContain(secret);

    const list = await runCli(['history'], { cwd: projectDir, env });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/GET {5}GET 127\.0\.0\.1:\d+\/users\/42 +200 /);
    const show = await runCli(['history', 'show', get.id], { cwd: projectDir, env });
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('(proxy):1');
    expect(show.stdout).toContain('Authorization: •••');
    expect(show.stdout).not.toContain(TOKEN);
    const replay = await runCli(['history', 'replay', get.id], { cwd: projectDir, env });
    expect(replay.code).toBe(2);
    expect(replay.stderr).toContain(`cannot replay ${get.id}: it was recorded by reqflow proxy`);
  });

  test('--save writes each request as a .http file that runs, credentials as variables, never over an existing file', async () => {
    const dir = join(projectDir, 'captured');
    await proxy.waitForStdout(/saved captured\/0006-/);
    const files = readdirSync(dir).filter((name) => name.endsWith('.http')).sort();
    expect(readFileSync(join(dir, firstSaved()), 'utf8')).toBe('mine\n');
    const saved = files.find((name) => name.startsWith('0002-')) as string;
    expect(saved).toBe(firstSaved().replace('0001', '0002'));
    const text = readFileSync(join(dir, saved), 'utf8');
    for (const secret of [TOKEN, API_KEY, PROXY_CREDENTIALS]) expect(text).not.toContain(secret);
    expect(text).toContain('Authorization: Bearer {{token}}');
    expect(text).toContain('api_key={{apiKey}}');
    const run = await runCli(['run', join(dir, saved), '--dry-run', '--show-secrets', '-e', `token=${TOKEN}`, '-e', 'apiKey=k1'], { cwd: clientDir, env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`GET ${upstreamUrl}/users/42?api_key=k1&page=2`);
    expect(run.stdout).toContain(`Authorization: Bearer ${TOKEN}`);

    const post = files.find((name) => name.includes('-post-')) as string;
    const postText = readFileSync(join(dir, post), 'utf8');
    expect(postText).not.toContain(PASSWORD);
    const sent = await runCli(['run', join(dir, post), '-e', 'password=new-pass', '--no-history'], { cwd: clientDir, env });
    expect(sent.code).toBe(0);
    expect((received.at(-1) as Received).body.toString()).toBe(JSON.stringify({ user: 'ada', password: 'new-pass' }));
    expect(existsSync(join(dir, `${post.replace(/\.http$/, '')}.bodies`))).toBe(false);
  });

  test('another proxy on a taken port is exit 2 naming the port', async () => {
    const taken = await runCli(['proxy', '--port', String(proxyPort)], { cwd: projectDir, env });
    expect(taken.code).toBe(2);
    expect(taken.stderr.trim().split('\n')[0]).toBe(`reqflow: port ${proxyPort} is in use (127.0.0.1:${proxyPort})`);
  });

  test('--host other than loopback is warned about', async () => {
    const open = startCli(['proxy', '--host', '0.0.0.0', '--port', '0', '--no-history'], { cwd: projectDir, env, timeoutMs: 60_000 });
    try {
      await open.waitForStderr(/warning: listening on 0\.0\.0\.0: other machines can send through this proxy/, 30_000);
      await open.waitForStdout(/proxy: listening on http:\/\/0\.0\.0\.0:\d+ \(history off\)/, 30_000);
    } finally {
      open.kill('SIGINT');
      expect((await open.done).code).toBe(0);
    }
  });

  test('a POST with no body and no framing header goes on with none (Content-Length 0), never as an empty chunked body', async () => {
    const socket = connect(proxyPort, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const answered = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        if (text.includes('\r\n\r\n')) resolve(text);
      });
    });
    socket.write(`POST ${upstreamUrl}/nobody HTTP/1.1\r\nHost: ${new URL(upstreamUrl).host}\r\n\r\n`);
    expect(await answered).toMatch(/^HTTP\/1\.1 \d{3}/);
    socket.destroy();
    const got = received.at(-1) as Received;
    expect([got.method, got.url]).toEqual(['POST', '/nobody']);
    expect(got.headers['transfer-encoding']).toBeUndefined();
    expect(got.headers['content-length']).toBe('0');
  });

  test('stops on Ctrl-C, saying how much it saw', async () => {
    proxy.kill('SIGINT');
    const result = await proxy.done;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/proxy: stopped after \d+ exchanges and 0 tunnels/);
  });
});
