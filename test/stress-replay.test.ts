/**
 * `reqflow stress` replays a deterministic request (src/stress/replay/): the bytes a raw TCP
 * server on 127.0.0.1 receives from the replay are the bytes `reqflow run` sends; responses of
 * every framing are read to their end; what the loop keeps from a response (a cookie, a token)
 * is kept and ends the replay; a request whose values change goes through the loop each time.
 * Counts are asserted, never times.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { createServer, type Server, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { makeCerts, type TestCerts } from './helpers/certs.js';
import { runCli, tempDir } from './helpers/cli.js';
import { needs } from './helpers/system-programs.js';
import { startCli } from './helpers/cli-live.js';
import { startTlsServer } from './servers/tls-server.js';

interface Received {
  /** The request's exact bytes: request line, header lines, body. */
  raw: string;
  head: string;
  /** 1-based, over the whole test. */
  n: number;
  /** 1-based, on its connection. */
  onSocket: number;
}

/** What the server writes for the n-th request (a raw HTTP/1.1 response, one char a byte), 'reset' to destroy the socket, 'hang' for no answer. */
type Answer = (request: Received) => string | 'reset' | 'hang';

const ok = (body = 'ok'): string => `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

let server: Server;
let base: string;
let received: Received[] = [];
let answer: Answer = () => ok();
let files: ReturnType<typeof tempDir>;

/** Splits a connection's bytes into requests (head, then a Content-Length body) and answers each. */
function serve(socket: Socket): void {
  let buffered = Buffer.alloc(0);
  let onSocket = 0;
  socket.on('error', () => undefined);
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffered.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffered.length < end + 4 + length) return;
      const request: Received = { raw: buffered.subarray(0, end + 4 + length).toString('latin1'), head, n: received.length + 1, onSocket: ++onSocket };
      buffered = buffered.subarray(end + 4 + length);
      received.push(request);
      const reply = answer(request);
      if (reply === 'reset') return void socket.destroy();
      if (reply === 'hang') continue;
      socket.write(reply, 'latin1');
      if (/\r\nconnection: close\r\n/i.test(reply.split('\r\n\r\n')[0] + '\r\n')) return void socket.end();
    }
  });
}

beforeAll(async () => {
  server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  files = tempDir('reqflow-stress-replay-');
  received = [];
  answer = () => ok();
});
afterEach(() => files.cleanup());

const env = (): NodeJS.ProcessEnv => ({ REQFLOW_STATE_DIR: `${files.dir}/state` });

async function stressJson(args: string[]): Promise<Record<string, any>> {
  const result = await runCli(['stress', ...args, '-o', 'json'], { cwd: files.dir, env: env(), timeoutMs: 60_000 });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Record<string, any>;
}

describe('stress replay: what is sent', () => {
  beforeEach(() => {
    files.write('.profiles.json', JSON.stringify([{ name: 'default', variables: { base, token: 'tok_live_0123456789', id: '42' }, headers: { 'X-Team': 'blue' }, auth: { type: 'bearer' } }]));
    files.write(
      'api.http',
      [
        '### create',
        'POST {{base}}/items/{{id}}?q=a%20b&tag=x',
        'Content-Type: application/json',
        'X-Trace: t-{{id}}',
        'Accept: application/json',
        'Accept: text/plain',
        '',
        '{"id": {{id}}, "name": "caf\u00e9 {{id}}"}',
        '',
        '### basic',
        '# @auth basic',
        'PUT {{base}}/basic',
        'Content-Type: text/plain',
        '',
        'hello {{id}}',
        '',
      ].join('\n'),
    );
  });

  test.each([
    ['create', [] as string[]],
    ['basic', ['-e', 'username=j\u00fcrgen', '-e', 'password=p\u00e4ss']],
  ])('%s: every stressed request carries the bytes reqflow run sends (method, target, headers, body)', async (name, extra) => {
    const run = await runCli(['run', 'api.http', '-n', name, ...extra], { cwd: files.dir, env: env(), timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect(received).toHaveLength(1);
    const sent = (received[0] as Received).raw;
    // What the request is made of reached the server: profile header, auth, variables, body.
    expect(sent).toContain('X-Team: blue\r\n');
    expect(sent).toMatch(name === 'create' ? /\r\nAuthorization: Bearer tok_live_0123456789\r\n/ : /\r\nAuthorization: Basic [A-Za-z0-9+/=]+\r\n/);
    expect(sent).toMatch(name === 'create' ? /^POST \/items\/42\?q=a%20b&tag=x HTTP\/1\.1\r\n[^]*\r\n\r\n\{"id": 42, "name": "caf\xc3\xa9 42"\}$/ : /^PUT \/basic HTTP\/1\.1\r\n[^]*\r\n\r\nhello 42$/);
    received = [];
    const summary = await stressJson(['api.http', '-n', name, ...extra, '--requests', '200', '-c', '3']);
    expect(summary.count).toBe(200);
    expect(summary.statuses).toEqual({ 200: 200 });
    expect(summary.sending.replayed).toBeGreaterThan(0);
    expect(summary.sending.replayed + summary.sending.loop).toBe(200);
    expect(summary.sending.loopReason).toBeUndefined();
    expect(received).toHaveLength(200);
    const differing = received.filter((request) => request.raw !== sent);
    expect(differing.map((request) => request.raw)).toEqual([]);
  });
});

/** The TLS case makes its certificates with openssl: skipped, with one line, where it is missing. */
const withOpenssl = needs(['openssl'], 'the TLS replay');

withOpenssl.describe('stress replay over TLS', () => {
  let certs: TestCerts;
  beforeAll(() => {
    certs = makeCerts();
  });
  afterAll(() => certs.cleanup());

  test('https with a client certificate and a private CA: replayed on the run\'s TLS settings, each request authenticated', async () => {
    const tls = await startTlsServer({ cert: certs.server.cert, key: certs.server.key, clientCa: certs.ca.cert });
    try {
      files.write('api.http', `# @tls.certFile ${certs.client.cert}\n# @tls.keyFile ${certs.client.key}\n# @tls.caFile ${certs.ca.cert}\nGET ${tls.url}/me\n`);
      const summary = await stressJson(['api.http', '--requests', '60', '-c', '3']);
      expect(summary.statuses).toEqual({ 200: 60 });
      expect(summary.sending.replayed).toBeGreaterThan(0);
      expect(tls.clients).toHaveLength(60);
      expect(new Set(tls.clients)).toEqual(new Set([expect.any(String)]));
    } finally {
      await tls.close();
    }
  });
});

describe('stress replay: which requests go through the loop each time', () => {
  test('a reference to a login run once before the clock is the same for every request: replayed', async () => {
    answer = (request) => (request.raw.startsWith('POST /login') ? `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 19\r\n\r\n{"token":"tok-abc"}` : ok());
    files.write('api.http', `### login\nPOST ${base}/login\n\n### me\nGET ${base}/me\nAuthorization: Bearer {{login.response.body.$.token}}\n`);
    const summary = await stressJson(['api.http', '-n', 'me', '--requests', '40', '-c', '2']);
    expect(summary.statuses).toEqual({ 200: 40 });
    expect(summary.sending).toEqual({ replayed: 39, loop: 1 });
    expect(received.filter((request) => request.raw.startsWith('POST /login'))).toHaveLength(1);
    expect(received.filter((request) => request.raw.includes('\r\nAuthorization: Bearer tok-abc\r\n'))).toHaveLength(40);
  });

  test('a dynamic value ({{$uuid}}) is resolved for every request', async () => {
    files.write('api.http', `GET ${base}/item\nX-Request-Id: {{$uuid}}\n`);
    const summary = await stressJson(['api.http', '--requests', '30', '-c', '2']);
    expect(summary.count).toBe(30);
    expect(summary.sending).toEqual({ replayed: 0, loop: 30, loopReason: 'the request uses a dynamic value ({{$…}} or $(…))' });
    const ids = new Set(received.map((request) => /\r\nX-Request-Id: ([^\r]+)/.exec(request.raw)?.[1]));
    expect(ids.size).toBe(30);
  });

  test('a variable the request reads that runs a shell command ($(…)) keeps the loop', async () => {
    files.write('api.http', `GET ${base}/item\nX-Stamp: {{stamp}}\n`);
    const summary = await stressJson(['api.http', '--requests', '5', '-c', '2', '-e', 'stamp=$(echo s)']);
    expect(summary.sending).toEqual({ replayed: 0, loop: 5, loopReason: 'a variable of the run holds a dynamic value ({{$…}} or $(…))' });
    expect(received.every((request) => request.raw.includes('\r\nX-Stamp: s\r\n'))).toBe(true);
  });

  test('checks (??) are run for every response, through the loop', async () => {
    files.write('api.http', `GET ${base}/item\n?? status == 200\n`);
    const summary = await stressJson(['api.http', '--requests', '10', '-c', '2']);
    expect(summary.sending).toEqual({ replayed: 0, loop: 10, loopReason: 'the request has checks' });
    expect(summary.checks).toEqual([{ name: 'status == 200', line: 2, passed: 10, failed: 0 }]);
  });
});

describe('stress replay: responses', () => {
  test.each([
    ['chunked', () => 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n'],
    ['Connection: close', () => `HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok`],
    ['a body that ends with the connection', () => 'HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end'],
    ['an interim 103 before the answer', () => `HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n${ok()}`],
    ['204 and 304 without a body', (request: Received) => (request.n % 2 === 0 ? 'HTTP/1.1 204 No Content\r\n\r\n' : 'HTTP/1.1 304 Not Modified\r\nETag: "x"\r\n\r\n')],
    // No body follows a 204 or 304 whatever Content-Length says (RFC 9112 §6.3): each once waited for one, and timed out.
    ['204 and 304 with a Content-Length', (request: Received) => (request.n % 2 === 0 ? 'HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n' : 'HTTP/1.1 304 Not Modified\r\nContent-Length: 5000\r\n\r\n')],
  ])('%s: every response is read to its end and counted', async (_name, reply) => {
    answer = reply;
    files.write('api.http', `GET ${base}/item\n`);
    const summary = await stressJson(['api.http', '--requests', '60', '-c', '3']);
    expect(summary.count).toBe(60);
    expect(summary.errors.total).toBe(0);
    expect(Object.values(summary.statuses as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(60);
    expect(summary.sending.replayed).toBeGreaterThan(0);
    expect(received).toHaveLength(60);
  });

  // A reply nobody asked for, cut in two: its first half rides behind a real response, its second
  // half comes with the next answer on that connection. Kept, the connection would read the 500
  // as the next request's answer.
  test('bytes behind a response (half of an unasked-for reply) retire the connection: no request is given an answer not its own', async () => {
    answer = (request) => `${request.onSocket > 1 ? 'gth: 0\r\n\r\n' : ''}${ok()}HTTP/1.1 500 Not Yours\r\nContent-Len`;
    files.write('api.http', `GET ${base}/item\n`);
    const summary = await stressJson(['api.http', '--requests', '40', '-c', '2']);
    expect(summary.statuses).toEqual({ 200: 40 });
    expect(summary.errors.total).toBe(0);
    expect(summary.sending.replayed).toBeGreaterThan(0);
    expect(received.filter((r) => r.onSocket > 1)).toEqual([]);
  });

  test('HEAD: a Content-Length with no body does not stall the connection', async () => {
    answer = () => 'HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n';
    files.write('api.http', `HEAD ${base}/item\n`);
    const summary = await stressJson(['api.http', '--requests', '40', '-c', '2']);
    expect(summary.statuses).toEqual({ 200: 40 });
    expect(summary.sending.replayed).toBeGreaterThan(0);
  });

  test('connections reset under replayed requests are counted as resets, as the loop counts them', async () => {
    answer = (request) => (request.n > 100 ? 'reset' : ok());
    files.write('api.http', `GET ${base}/item\n`);
    const summary = await stressJson(['api.http', '--requests', '130', '-c', '1']);
    expect(summary.count).toBe(130);
    expect(summary.statuses).toEqual({ 200: 100 });
    expect(summary.errors).toEqual({ total: 30, rate: 30 / 130, kinds: { reset: 30 } });
    expect(summary.sending.replayed).toBeGreaterThan(0);
  });

  test('Ctrl-C cancels the replayed requests in flight: the run ends at once with its table, exit 130', async () => {
    answer = (request) => (request.n > 50 ? 'hang' : ok());
    files.write('api.http', `GET ${base}/item\n`);
    const cli = startCli(['stress', 'api.http', '--duration', '60s', '--timeout', '120000', '-c', '2'], { cwd: files.dir, env: env(), timeoutMs: 40_000 });
    for (let i = 0; i < 400 && received.length < 52; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect({ received: received.length, stderr: cli.stderr() }).toEqual({ received: 52, stderr: '' }); // both workers wait for an answer that never comes
    cli.kill('SIGINT');
    const result = await cli.done;
    expect(result.code).toBe(130);
    expect(result.stdout).toContain('200 ×50');
  });

  test('a cookie set under the replay is stored and carried by the next requests (through the loop)', async () => {
    answer = (request) => (request.n === 60 ? `HTTP/1.1 200 OK\r\nSet-Cookie: s=abc; Path=/\r\nContent-Length: 2\r\n\r\nok` : ok());
    files.write('api.http', `GET ${base}/item\n`);
    const summary = await stressJson(['api.http', '--requests', '80', '-c', '1']);
    expect(summary.count).toBe(80);
    expect(received.map((request) => request.raw.includes('\r\nCookie: s=abc\r\n'))).toEqual(Array.from({ length: 80 }, (_, i) => i >= 60));
    expect(summary.sending.replayed).toBeGreaterThan(0);
    expect(summary.sending.loopReason).toBe('the server set a cookie: the next requests carry it');
  });

  test('a compressed response hands the next requests to the loop, which decodes them', async () => {
    const gzipped = gzipSync('{"ok":true}').toString('latin1');
    answer = (request) => (request.n >= 60 ? `HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: ${gzipped.length}\r\n\r\n${gzipped}` : ok());
    files.write('api.http', `GET ${base}/item\n`);
    const summary = await stressJson(['api.http', '--requests', '80', '-c', '1']);
    expect(summary.statuses).toEqual({ 200: 80 });
    expect(summary.errors.total).toBe(0);
    expect(summary.sending.replayed).toBeGreaterThan(0);
    expect(summary.sending.loop).toBeGreaterThanOrEqual(20);
    expect(summary.sending.loopReason).toBe('a response came compressed: the loop decodes the next ones');
  });

  test('a token in a JSON response is stored in the session as the loop stores it', async () => {
    answer = (request) => {
      const body = request.n >= 60 ? `{"token":"tok-${request.n}"}` : '{"ok":true}';
      return `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    };
    files.write('api.http', `### load\nGET ${base}/item\n\n### use\nGET ${base}/use\nX-Token: {{token}}\n`);
    const summary = await stressJson(['api.http', '-n', 'load', '--requests', '80', '-c', '1']);
    expect(summary.count).toBe(80);
    expect(summary.sending.replayed).toBeGreaterThan(0);
    expect(summary.sending.loopReason).toBe('a response held a token, stored in the session: the next requests may carry it');
    const use = await runCli(['run', 'api.http', '-n', 'use'], { cwd: files.dir, env: env(), timeoutMs: 60_000 });
    expect(use.code).toBe(0);
    expect(received.at(-1)?.raw).toContain('\r\nX-Token: tok-80\r\n');
  });
});
