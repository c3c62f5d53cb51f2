/**
 * HTTP Digest (RFC 7616) against real servers: `http-auth` (MD5, MD5-sess, and qop-less RFC 2069)
 * and a SHA-256 server written here from the RFC; the response function against the RFC's own
 * worked example; the Basic shorthand of VS Code and JetBrains against a recording server.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import httpAuth from 'http-auth';
import { digestChallenges } from '../src/plugins/auth-digest/challenge.js';
import { digestAuthorization } from '../src/plugins/auth-digest/response.js';
import { runCli, tempDir } from './helpers/cli.js';

const USER = 'Mufasa';
const PASSWORD = 'Circle of Life';
const servers: Server[] = [];
const tmp = tempDir('reqflow-digest-');
const seen: Array<{ url: string; authorization?: string }> = [];

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** http-auth's own digest check (a maintained server implementation), MD5 family. */
function httpAuthServer(algorithm: 'MD5' | 'MD5-sess', qop: 'auth' | 'none'): Promise<string> {
  const md5 = (text: string): string => createHash('md5').update(text).digest('hex');
  const digest = httpAuth.digest({ realm: 'zoo', algorithm, qop, file: () => `${USER}:zoo:${md5(`${USER}:zoo:${PASSWORD}`)}` });
  return listen((req, res) => digest.check((_req: IncomingMessage, ok: ServerResponse) => ok.end(`hello ${(_req as IncomingMessage & { user?: string }).user}`))(req, res));
}

/** A SHA-256 digest server from RFC 7616 §3.4.1, written independently of the client. */
function sha256Server(): Promise<string> {
  const nonce = randomBytes(12).toString('base64');
  const h = (text: string): string => createHash('sha256').update(text).digest('hex');
  return listen((req, res) => {
    const header = req.headers.authorization ?? '';
    const params = Object.fromEntries([...header.matchAll(/(\w+)=(?:"([^"]*)"|([^\s,]+))/g)].map((m) => [m[1], m[2] ?? m[3]]));
    const expected = h(`${h(`${USER}:api:${PASSWORD}`)}:${nonce}:${params.nc}:${params.cnonce}:auth:${h(`${req.method}:${params.uri}`)}`);
    if (header.startsWith('Digest ') && params.username === USER && params.uri === req.url && params.algorithm === 'SHA-256' && params.response === expected) return void res.end('sha ok');
    res.writeHead(401, { 'WWW-Authenticate': [`Digest realm="api", qop="auth", algorithm=SHA-256, nonce="${nonce}", opaque="xyz"`, `Digest realm="api", qop="auth", algorithm=MD5, nonce="${nonce}"`] }).end('no');
  });
}

beforeAll(() => undefined);
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  tmp.cleanup();
});

describe('the digest response function', () => {
  test("RFC 7616 §3.9.1's example: MD5 and SHA-256", () => {
    const challenge = { realm: 'http-auth@example.org', nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v', opaque: 'FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS', qop: ['auth', 'auth-int'] };
    const target = { method: 'GET', uri: '/dir/index.html' };
    const cnonce = 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ';
    expect(digestAuthorization({ ...challenge, algorithm: 'MD5' }, { username: USER, password: PASSWORD }, target, 1, cnonce)).toContain('response="8ca523f5e9506fed4657c9700eebdbec"');
    expect(digestAuthorization({ ...challenge, algorithm: 'SHA-256' }, { username: USER, password: PASSWORD }, target, 1, cnonce)).toContain('response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"');
  });

  test('challenges: several in one header or in several, strongest first; other schemes ignored', () => {
    const found = digestChallenges(['Basic realm="x", Digest realm="a", nonce="n1", algorithm=MD5', 'Digest realm="b", nonce="n2", algorithm=SHA-256, qop="auth,auth-int"']);
    expect(found.map((c) => [c.realm, c.algorithm, c.qop])).toEqual([
      ['b', 'SHA-256', ['auth', 'auth-int']],
      ['a', 'MD5', []],
    ]);
    // Space before a list's comma is allowed (OWS, RFC 9110 §5.6.1); empty list elements too.
    expect(digestChallenges('Basic realm="x" ,  Digest realm="c", nonce="n3" ,, Digest realm="d", nonce="n4"').map((c) => c.realm)).toEqual(['c', 'd']);
    expect(digestChallenges('Digest  realm = "e" , nonce=n5, opaque="o, p=q"')).toEqual([{ realm: 'e', nonce: 'n5', opaque: 'o, p=q', algorithm: 'MD5', qop: [] }]);
  });

  test("a server's header made to backtrack (a 1 MiB token without '=', a 1 MiB run of spaces) is read in linear time", () => {
    // Both took time quadratic in the header's length (0.6 s each at 16 KiB, so about 45 minutes
    // at 1 MiB); linear, they take milliseconds. The bound is far from both.
    const started = Date.now();
    expect(digestChallenges(`Digest ${'!'.repeat(1 << 20)}"`)).toEqual([]);
    expect(digestChallenges(`Digest realm="a", nonce="b"${'\t'.repeat(1 << 20)}x`)).toEqual([{ realm: 'a', nonce: 'b', algorithm: 'MD5', qop: [] }]);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe('Digest against real servers', () => {
  const run = async (file: string, text: string, extra: string[] = []) => runCli(['run', tmp.write(file, text), '-o', 'raw', ...extra], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });

  test.each([
    ['MD5', 'auth'],
    ['MD5-sess', 'auth'],
    ['MD5', 'none'],
  ] as Array<['MD5' | 'MD5-sess', 'auth' | 'none']>)('http-auth %s qop=%s: the shorthand header logs in', async (algorithm, qop) => {
    const url = await httpAuthServer(algorithm, qop);
    const result = await run(`md5-${algorithm}-${qop}.http`, `GET ${url}/zoo?animal=lion\nAuthorization: Digest ${USER} ${PASSWORD}\n`);
    expect([result.code, result.stdout, result.stderr]).toEqual([0, `hello ${USER}`, '']);
  });

  test('SHA-256 is preferred when offered; the user:password form works too; nothing secret is shown with -v', async () => {
    const url = await sha256Server();
    const before = seen.length;
    const result = await run('sha.http', `GET ${url}/secret?x=1\nAuthorization: Digest ${USER}:${PASSWORD}\n`, ['-v']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('sha ok');
    const sent = seen.slice(before);
    expect(sent[0]?.authorization).toBeUndefined(); // the first try carries no credentials
    expect(sent[1]?.authorization).toMatch(/^Digest username="Mufasa", realm="api", .*algorithm=SHA-256.*opaque="xyz"$/);
    expect(`${result.stdout}${result.stderr}`).not.toContain(PASSWORD);
  });

  test('# @auth digest with profile variables', async () => {
    const url = await httpAuthServer('MD5', 'auth');
    const result = await run('annotated.http', `# @auth digest\nGET ${url}/zoo\n`, ['-e', `username=${USER}`, '-e', `password=${PASSWORD}`]);
    expect([result.code, result.stdout]).toEqual([0, `hello ${USER}`]);
  });

  test('a wrong password ends with the server\'s 401, exit 1', async () => {
    const url = await httpAuthServer('MD5', 'auth');
    const result = await run('wrong.http', `GET ${url}/zoo\nAuthorization: Digest ${USER} wrong\n`);
    expect(result.code).toBe(1);
  });
});

describe('Digest and redirects (-L)', () => {
  const runL = async (file: string, text: string, extra: string[] = []) => runCli(['run', tmp.write(file, text), '-L', '-o', 'raw', ...extra], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });

  /**
   * http-auth's digest check behind /a → /b on one origin, both protected (realm "zoo"): with
   * `protectedA` false, /a redirects before any challenge. A digest whose `uri` is not the
   * request's own target is refused first (400), as RFC 7616 §3.4.6 asks of a server.
   */
  function redirectingServer(protectedA: boolean): Promise<string> {
    const md5 = (text: string): string => createHash('md5').update(text).digest('hex');
    const digest = httpAuth.digest({ realm: 'zoo', algorithm: 'MD5', qop: 'auth', file: () => `${USER}:zoo:${md5(`${USER}:zoo:${PASSWORD}`)}` });
    return listen((req, res) => {
      const uri = /\buri="([^"]*)"/.exec(req.headers.authorization ?? '')?.[1];
      if (uri !== undefined && uri !== req.url) return void res.writeHead(400).end(`uri ${uri} is not ${req.url}`);
      if (req.url === '/a' && !protectedA) return void res.writeHead(302, { Location: '/b' }).end();
      digest.check((_req: IncomingMessage, ok: ServerResponse) => (req.url === '/a' ? ok.writeHead(302, { Location: '/b' }).end() : ok.end('hello b')))(req, res);
    });
  }

  test.each([
    ['/a challenges, its answer is redirected to /b', true],
    ['/a redirects at once, /b challenges', false],
  ])('same origin, %s: each hop carries a digest of its own target (it carried /a\'s to /b: uri /a is not /b)', async (_name, protectedA) => {
    const url = await redirectingServer(protectedA);
    const before = seen.length;
    const result = await runL(`same-origin-${String(protectedA)}.http`, `GET ${url}/a\nAuthorization: Digest ${USER} ${PASSWORD}\n`);
    expect([result.code, result.stdout, result.stderr]).toEqual([0, 'hello b', '']);
    const answered = seen.slice(before).filter((r) => r.authorization !== undefined);
    // The answered request goes again from the file's URL: /a, then /b, the nonce counted up.
    expect(answered.map((r) => [r.url, /\buri="([^"]*)"/.exec(r.authorization ?? '')?.[1], /\bnc=(\w+)/.exec(r.authorization ?? '')?.[1]])).toEqual([
      ['/a', '/a', '00000001'],
      ['/b', '/b', '00000002'],
    ]);
  });

  // Two ports of 127.0.0.1 are two origins. Each challenges whoever comes without credentials, in a realm of its own.
  const challenge = (res: ServerResponse, realm: string): void => void res.writeHead(401, { 'WWW-Authenticate': `Digest realm="${realm}", nonce="nonce-of-${realm}", qop="auth"` }).end();

  test("another origin's challenge is not answered (the 401 is the result, -v says why); nothing with credentials reaches that origin", async () => {
    const other = await listen((req, res) => (req.headers.authorization ? res.end('b ok') : challenge(res, 'b')));
    const first = await listen((req, res) => {
      if (req.url === '/answered-then-moved' && req.headers.authorization) return void res.writeHead(307, { Location: `${other}/moved` }).end();
      if (req.url === '/answered-then-moved') return challenge(res, 'a');
      res.writeHead(302, { Location: `${other}/landed` }).end();
    });
    const before = seen.length;
    const file = tmp.write('digest-redirect.http', `### moved\n# @auth digest\nGET ${first}/moved-at-once\n\n### answered\nGET ${first}/answered-then-moved\nAuthorization: Digest ${USER} ${PASSWORD}\n`);
    const result = await runCli(['run', file, '-L', '-v', '-e', `username=${USER}`, '-e', `password=${PASSWORD}`], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    const sent = seen.slice(before);
    // B's 401 ends each request (exit 1). B never gets an Authorization; A never gets an answer to B's challenge
    // (it got one: realm "b", sent to A and followed to B without it).
    expect(result.code).toBe(1);
    const atOther = sent.filter((r) => r.url === '/landed' || r.url === '/moved');
    expect(atOther.map((r) => [r.url, r.authorization])).toEqual([['/landed', undefined], ['/moved', undefined]]);
    const atFirst = sent.filter((r) => r.url === '/moved-at-once' || r.url === '/answered-then-moved');
    expect(atFirst.map((r) => [r.url, r.authorization])).toEqual([
      ['/moved-at-once', undefined],
      ['/answered-then-moved', undefined],
      ['/answered-then-moved', expect.stringMatching(/^Digest username="Mufasa", realm="a", nonce="nonce-of-a", uri="\/answered-then-moved"/)],
    ]);
    expect(JSON.stringify(sent)).not.toMatch(/realm="b"|nonce-of-b/);
    expect(result.stderr).toMatch(/reqflow: digest challenge from http:\/\/127\.0\.0\.1:\d+ not answered: the credentials are for http:\/\/127\.0\.0\.1:\d+, the origin the file names/);
    expect(result.stderr).toMatch(/redirected to http:\/\/127\.0\.0\.1:\d+\/moved; not sent there \(another origin\): Authorization/);
    expect(JSON.stringify(sent)).not.toContain(PASSWORD);
    expect(`${result.stdout}${result.stderr}`).not.toContain(PASSWORD);
  });
});

describe('the Basic shorthand', () => {
  test('Basic user password and Basic user:password are encoded; a base64 value is sent as written; -v masks it', async () => {
    const url = await listen((_req, res) => res.end('ok'));
    const before = seen.length;
    const file = tmp.write('basic.http', `GET ${url}/a\nAuthorization: Basic ada s3cret pass\n\n###\nGET ${url}/b\nAuthorization: Basic ada:{{pw}}\n\n###\nGET ${url}/c\nAuthorization: Basic YWRhOnMzY3JldA==\n`);
    const result = await runCli(['run', file, '-v', '-e', 'pw=s3cret'], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(result.code).toBe(0);
    expect(seen.slice(before).map((r) => r.authorization)).toEqual([`Basic ${Buffer.from('ada:s3cret pass').toString('base64')}`, `Basic ${Buffer.from('ada:s3cret').toString('base64')}`, 'Basic YWRhOnMzY3JldA==']);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/s3cret|YWRhOnMzY3JldA/);
  });

  test('an empty user (Basic :token) and an empty password (Basic user:) are encoded too (:token went out as written, not base64)', async () => {
    const url = await listen((_req, res) => res.end('ok'));
    const before = seen.length;
    const file = tmp.write('basic-empty.http', `GET ${url}/a\nAuthorization: Basic :t0ken\n\n###\nGET ${url}/b\nAuthorization: Basic ada:\n`);
    const result = await runCli(['run', file], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(result.code).toBe(0);
    expect(seen.slice(before).map((r) => r.authorization)).toEqual([`Basic ${Buffer.from(':t0ken').toString('base64')}`, `Basic ${Buffer.from('ada:').toString('base64')}`]);
  });
});
