/**
 * HTTP/2 against real servers on 127.0.0.1: Node's http2 server over TLS (ALPN, the test CA,
 * an optional client certificate) and in cleartext (h2c), beside HTTP/1.1-only servers. The
 * request line's `HTTP/2` requires it, `--http2` and the profile's `http2` prefer it; one
 * connection serves every request of a file; auth, cookies, redirects, gzip, streams, time-outs
 * and resets behave as over HTTP/1.1.
 */
import { afterAll, beforeAll, expect } from '@jest/globals';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { constants, createSecureServer, createServer as createH2cServer, type Http2Server, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCerts, type TestCerts } from './helpers/certs.js';
import { runCli, tempDir } from './helpers/cli.js';
import { parseRecords } from './helpers/records.js';
import { needs } from './helpers/system-programs.js';

// Skipped without openssl: its servers use certificates made by openssl (helpers/certs.ts).
const { describe, test } = needs(['openssl']);

let certs: TestCerts;
const servers: Array<HttpServer | Http2Server> = [];
/** Connections (HTTP/2 sessions or TCP connections) each server accepted. */
const connections = new Map<string, number>();
let h2 = '';
let h2only = '';
let h2c = '';
let h1tls = '';
let h1 = '';
const tmp = tempDir('reqflow-h2-');

type AnyRequest = Http2ServerRequest | import('node:http').IncomingMessage;
type AnyResponse = Http2ServerResponse | import('node:http').ServerResponse;

function handler(req: AnyRequest, res: AnyResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const path = req.url ?? '';
    const send = (status: number, headers: Record<string, string | string[]>, body: string | Buffer): void => {
      res.writeHead(status, headers);
      res.end(body);
    };
    if (path === '/redirect') return send(302, { location: '/landed' }, '');
    if (path === '/login') return send(200, { 'set-cookie': ['sid=s3cr3t-session; Path=/; HttpOnly'], 'content-type': 'text/plain' }, 'ok');
    if (path === '/gzip') return send(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }, gzipSync(JSON.stringify({ zipped: true })));
    if (path === '/slow') {
      // Cleared when the client gives up: a timer left behind would keep the jest worker alive.
      const timer = setTimeout(() => send(200, {}, 'late'), 3000);
      return void res.on('close', () => clearTimeout(timer));
    }
    if (path === '/reset' && 'stream' in res) return void res.stream.close(constants.NGHTTP2_INTERNAL_ERROR);
    // Reset before any answer, with a code that is no error (NO_ERROR, CANCEL): Node raises no error for these.
    if (path === '/reset-no-error' && 'stream' in res) return void res.stream.close(constants.NGHTTP2_NO_ERROR);
    if (path === '/reset-cancel' && 'stream' in res) return void res.stream.close(constants.NGHTTP2_CANCEL);
    // The connection closed before any answer.
    if (path === '/drop' && 'stream' in res) return void res.stream.session?.destroy();
    // Half a body, then the connection closes: no END_STREAM ever comes.
    if (path === '/cut' && 'stream' in res) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      (res as { write(chunk: string): boolean }).write('partial');
      const timer = setTimeout(() => res.stream.session?.destroy(), 100);
      return void res.on('close', () => clearTimeout(timer));
    }
    // Half a body, then RST_STREAM NO_ERROR with no END_STREAM: allowed only after a whole answer (RFC 9113 §8.1).
    if (path === '/cut-reset' && 'stream' in res) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      (res as { write(chunk: string): boolean }).write('partial');
      const timer = setTimeout(() => res.stream.destroy(), 100);
      return void res.on('close', () => clearTimeout(timer));
    }
    if (path === '/interim-flood' && 'stream' in res) {
      for (let i = 0; i < 150; i++) res.stream.additionalHeaders({ ':status': 103, link: '</app.css>; rel=preload' });
      return; // and never a final response
    }
    // Trailer fields after the body: a HEADERS frame over HTTP/2, the chunked body's last lines over HTTP/1.1.
    if (path === '/trailers') {
      res.writeHead(200, { 'content-type': 'application/json', trailer: 'x-checksum, grpc-status, x-session-token' });
      (res as { write(chunk: string): boolean }).write('{"a":1}');
      res.addTrailers({ 'x-checksum': 'abc123', 'grpc-status': '0', 'x-session-token': 'trailer-s3cret' });
      return void res.end();
    }
    if (path === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const tick = setInterval(() => {
        n += 1;
        (res as { write(chunk: string): boolean }).write(`event: tick\ndata: {"n":${n}}\n\n`);
        if (n === 3) {
          clearInterval(tick);
          res.end();
        }
      }, 10);
      return;
    }
    const socket = (req.socket ?? null) as TLSSocket | null;
    const peer = typeof socket?.getPeerCertificate === 'function' ? socket.getPeerCertificate() : undefined;
    send(200, { 'content-type': 'application/json' }, JSON.stringify({
      version: req.httpVersion,
      method: req.method,
      path,
      authority: req.headers[':authority'] ?? req.headers.host,
      authorization: req.headers.authorization ?? null,
      cookie: req.headers.cookie ?? null,
      connection: req.headers.connection ?? null,
      client: peer?.subject?.CN ?? null,
      body: Buffer.concat(chunks).toString('utf8'),
    }));
  });
}

async function listen(name: string, server: HttpServer | Http2Server, scheme: 'http' | 'https'): Promise<string> {
  servers.push(server);
  connections.set(name, 0);
  server.on(scheme === 'https' ? 'secureConnection' : 'connection', () => connections.set(name, (connections.get(name) ?? 0) + 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  certs = makeCerts();
  const tls = { cert: readFileSync(certs.server.cert), key: readFileSync(certs.server.key), ca: readFileSync(certs.ca.cert), requestCert: true, rejectUnauthorized: false };
  h2 = await listen('h2', createSecureServer({ ...tls, allowHTTP1: true }, handler), 'https');
  h2only = await listen('h2only', createSecureServer(tls, handler), 'https');
  h2c = await listen('h2c', createH2cServer(handler), 'http');
  h1tls = await listen('h1tls', createHttpsServer(tls, handler), 'https');
  h1 = await listen('h1', createHttpServer(handler), 'http');
  tmp.write('.profiles.json', JSON.stringify({
    profiles: [
      { name: 'default', tls: { caFile: certs.ca.cert }, variables: { token: 'tok-h2-secret' } },
      { name: 'h2', http2: true, tls: { caFile: certs.ca.cert } },
      { name: 'mtls', tls: { caFile: certs.ca.cert, certFile: certs.client.cert, keyFile: certs.client.key } },
    ],
  }));
});
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  certs.cleanup();
  tmp.cleanup();
});

let files = 0;
const run = (text: string, ...args: string[]) => {
  const file = tmp.write(`r${(files += 1)}.http`, text.replaceAll('H2ONLY', h2only).replaceAll('H2C', h2c).replaceAll('H2', h2).replaceAll('H1TLS', h1tls).replaceAll('H1', h1));
  return runCli(['run', file, ...args], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
};
const bodies = (stdout: string) => parseRecords(stdout).map((record) => ({ httpVersion: record.httpVersion, body: record.body as Record<string, unknown> }));

describe('HTTP/2 in the request line: required', () => {
  test('over TLS (ALPN): every request of the file on one connection, bodies and methods as written', async () => {
    const before = connections.get('h2') ?? 0;
    const result = await run('GET H2/a HTTP/2\n\n###\nPOST H2/b HTTP/2\nContent-Type: text/plain\n\nhello h2\n\n###\nDELETE H2/c HTTP/2\n', '-o', 'json');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const seen = bodies(result.stdout);
    expect(seen.map((r) => [r.httpVersion, r.body.version, r.body.method, r.body.path])).toEqual([
      ['2', '2.0', 'GET', '/a'],
      ['2', '2.0', 'POST', '/b'],
      ['2', '2.0', 'DELETE', '/c'],
    ]);
    expect(seen[1]?.body.body).toBe('hello h2');
    expect(seen[0]?.body.authority).toBe(new URL(h2).host);
    expect((connections.get('h2') ?? 0) - before).toBe(1);
  });

  test('pretty output names the version; HTTP/2.0 is the same', async () => {
    const result = await run('GET H2/pretty HTTP/2.0\n', '-v');
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).toMatch(/^HTTP\/2 200 OK/m);
  });

  test('cleartext: h2c with prior knowledge', async () => {
    const result = await run('GET H2C/plain HTTP/2\n', '-o', 'json');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(bodies(result.stdout)[0]).toMatchObject({ httpVersion: '2', body: { version: '2.0', path: '/plain' } });
  });

  test('a TLS server that only speaks HTTP/1.1: exit 4, nothing sent over HTTP/1.1', async () => {
    const result = await run('POST H1TLS/never HTTP/2\n\nbody\n');
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(`reqflow: ${h1tls} does not speak HTTP/2: offered h2 by ALPN, the server chose http/1.1\nhint: the request line says HTTP/2: remove it to send the request over HTTP/1.1, or use --http2, which falls back\n`);
  });

  test('an http:// URL of a cleartext HTTP/1.1 server: sent over HTTP/1.1, as curl --http2 (kulala) and httpyac do there', async () => {
    const result = await run('GET H1/fallback HTTP/2\n\n###\nPOST H1/fallback-post HTTP/2\nContent-Type: text/plain\n\nhello h1\n', '-o', 'json');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(bodies(result.stdout).map((r) => [r.httpVersion, r.body.version, r.body.method, r.body.path, r.body.body])).toEqual([
      ['1.1', '1.1', 'GET', '/fallback', ''],
      ['1.1', '1.1', 'POST', '/fallback-post', 'hello h1'],
    ]);
    // As a curl command it is curl's --http2, which asks for HTTP/2 and falls back the same way.
    const curl = await run('GET H1/fallback HTTP/2\n', '--dry-run', '--as', 'curl');
    expect(curl.stdout).toMatch(/^  --http2 \\$/m);
    expect(curl.stdout).not.toMatch(/prior-knowledge/);
  });

  test('a YAML request with httpVersion: 2 is the same; a bad value is exit 2 naming the field', async () => {
    const yaml = tmp.write('h2.yaml', `name: yaml-h2\nurl: ${h2}/yaml\nhttpVersion: 2\n`);
    const result = await runCli(['run', yaml, '-o', 'json'], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(bodies(result.stdout)[0]).toMatchObject({ httpVersion: '2', body: { path: '/yaml' } });
    const bad = await runCli(['run', tmp.write('h3.yaml', `name: yaml-h3\nurl: ${h2}/yaml\nhttpVersion: 3\n`)], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/h3\.yaml: .*httpVersion: expected "1\.1" or "2"/);
  });

  test('HTTP/3 is refused at parse time, naming the line', async () => {
    const result = await run('\nGET H2/x HTTP/3\n');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/r\d+\.http:2:\d+: HTTP\/3 is not supported/);
  });
});

describe('an HTTP/2-only gateway, with no flag at all', () => {
  test('it refuses HTTP/1.1 in the TLS handshake (nothing sent): reqflow speaks HTTP/2 to it, and says so in -v', async () => {
    const before = connections.get('h2only') ?? 0;
    const result = await run('GET H2ONLY/a\n\n###\nPOST H2ONLY/b\n\nbody\n', '-o', 'json', '-v');
    expect(result.code).toBe(0);
    expect(bodies(result.stdout).map((r) => [r.httpVersion, r.body.method, r.body.path, r.body.body])).toEqual([
      ['2', 'GET', '/a', ''],
      ['2', 'POST', '/b', 'body'],
    ]);
    expect(result.stderr.match(/refused HTTP\/1\.1 and speaks HTTP\/2: sent over HTTP\/2/g)).toHaveLength(1);
    // The refused handshake, then one HTTP/2 connection for both requests.
    expect((connections.get('h2only') ?? 0) - before).toBe(1);
  });

  test('a request line that says HTTP/1.1 is not switched: the refusal is the error', async () => {
    const result = await run('GET H2ONLY/a HTTP/1.1\n');
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/^reqflow: TLS error with 127\.0\.0\.1:\d+: the server does not speak the HTTP version the request asks for \(it refused it by ALPN\)\n/);
  });
});

describe('--http2 and the profile: preferred, HTTP/1.1 where the server does not agree', () => {
  test('HTTP/2 where spoken, HTTP/1.1 elsewhere, and a written HTTP/1.1 stays HTTP/1.1', async () => {
    const result = await run('GET H2/one\n\n###\nGET H2C/two\n\n###\nGET H1TLS/three\n\n###\nGET H1/four\n\n###\nGET H2/five HTTP/1.1\n', '--http2', '-o', 'json');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(bodies(result.stdout).map((r) => [r.httpVersion, r.body.path])).toEqual([
      ['2', '/one'],
      ['2', '/two'],
      ['1.1', '/three'],
      ['1.1', '/four'],
      ['1.1', '/five'],
    ]);
    expect(bodies(result.stdout)[4]?.body.version).toBe('1.1');
  });

  test('"http2": true in the profile does what --http2 does; a non-boolean is exit 2 naming the field', async () => {
    const result = await run('GET H2/p\n', '-p', 'h2', '-o', 'json');
    expect(bodies(result.stdout)[0]?.httpVersion).toBe('2');
    tmp.write('bad.profiles.json', JSON.stringify({ profiles: [{ name: 'bad', http2: 'yes' }] }));
    const bad = await run('GET H2/p\n', '--profiles', join(tmp.dir, 'bad.profiles.json'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\.profiles\.json: profiles\[0\]\.http2: expected true or false\n$/);
  });
});

describe('the same behaviour as over HTTP/1.1', () => {
  test('auth header sent and masked in -v, cookies kept, redirects followed, gzip decoded', async () => {
    const result = await run(
      'GET H2/login HTTP/2\n\n###\nGET H2/redirect HTTP/2\nAuthorization: Bearer {{token}}\nConnection: keep-alive\n\n###\nGET H2/gzip HTTP/2\n',
      '-L',
      '-v',
      '-o',
      'json',
    );
    expect(result.code).toBe(0);
    const [, landed, zipped] = bodies(result.stdout);
    expect(landed?.body).toMatchObject({ path: '/landed', authorization: 'Bearer tok-h2-secret', cookie: 'sid=s3cr3t-session', connection: null });
    expect(zipped?.body).toEqual({ zipped: true });
    expect(result.stderr).not.toContain('tok-h2-secret');
    expect(result.stderr).not.toContain('s3cr3t-session');
  });

  test.each([
    ['HTTP/2 over TLS', 'GET H2/trailers HTTP/2', '2'],
    ['h2c', 'GET H2C/trailers HTTP/2', '2'],
    ['HTTP/1.1, chunked', 'GET H1/trailers', '1.1'],
  ])('trailers after the body (%s) are the -o json record\'s "trailers", a secret-named one masked; a response without any has none', async (_what, line, version) => {
    const result = await run(`${line}\n\n###\n${line.replace('/trailers', '/plain')}\n`, '-o', 'json');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const [withTrailers, without] = parseRecords(result.stdout);
    expect(withTrailers).toMatchObject({ httpVersion: version, body: { a: 1 }, trailers: { 'x-checksum': 'abc123', 'grpc-status': '0', 'x-session-token': '•••' } });
    expect(result.stdout).not.toContain('trailer-s3cret');
    expect(without).not.toHaveProperty('trailers');
  });

  test('a client certificate (mutual TLS) over HTTP/2', async () => {
    const result = await run('GET H2/me HTTP/2\n', '-p', 'mtls', '-o', 'json');
    expect(result.code).toBe(0);
    expect(bodies(result.stdout)[0]?.body.client).toBe('reqflow test client');
  });

  test('server-sent events arrive as events', async () => {
    const result = await run('# @streaming true\nGET H2/events HTTP/2\n', '-o', 'json');
    expect(result.code).toBe(0);
    const events = parseRecords(result.stdout).filter((record) => record.type === 'event');
    expect(events.map((event) => (event.data as { n: number }).n)).toEqual([1, 2, 3]);
  });

  test('the server resets the stream: exit 4 naming the error code', async () => {
    const result = await run('GET H2/reset HTTP/2\n');
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^reqflow: 127\.0\.0\.1:\d+ reset the HTTP\/2 stream of GET https:\/\/127\.0\.0\.1:\d+\/reset: NGHTTP2_INTERNAL_ERROR\n/);
  });

  test.each(['/reset-no-error', '/reset-cancel', '/drop'])('no answer at all (%s): exit 4 and the error, and the run goes on to the next request', async (path) => {
    // Before, the run ended there with exit 0 and nothing printed: the rest of the file was never sent.
    const result = await run(`GET H2C${path} HTTP/2\n\n###\nGET H1/after\n`, '-o', 'json');
    expect(result.code).toBe(4);
    const records = parseRecords(result.stdout);
    expect(records.map((record) => record.type)).toEqual(['error', 'response']);
    expect((records[0]?.error as { message: string }).message).toMatch(/^connection to 127\.0\.0\.1:\d+ was reset$/);
    expect((records[1]?.body as { path: string }).path).toBe('/after');
  });

  test.each(['/cut', '/cut-reset'])('a body cut short (%s: the connection closed, a reset with no error before the last frame): exit 4, not a complete 200', async (path) => {
    const result = await run(`GET H2C${path} HTTP/2\n`, '-o', 'raw');
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^reqflow: connection to 127\.0\.0\.1:\d+ was reset\nhint: the server closed the connection before the response was complete\n/);
  });

  test('a flood of 1xx interim heads: exit 4 at once, not an endless wait', async () => {
    const result = await run('GET H2/interim-flood HTTP/2\n', '--timeout', '20000');
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/the server sent more than 100 interim \(1xx\) responses and no final one\n/);
  });

  test('--timeout applies to an HTTP/2 stream', async () => {
    // The TLS handshake has its own, generous limit: on a busy machine it alone can take 300 ms.
    const result = await run('# @connection-timeout 10\nGET H2/slow HTTP/2\n', '--timeout', '300');
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^reqflow: GET https:\/\/127\.0\.0\.1:\d+\/slow timed out after 300 ms\n/);
  });
});
