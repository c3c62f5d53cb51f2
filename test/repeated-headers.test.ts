/**
 * Repeated header fields on the wire. Response: a field the server repeats is shown line by
 * line in `-v` and as an array in `-o json` (Node would join the values with commas, which
 * changes a value that holds a comma of its own); a repeated Content-Type keeps the first, as
 * Node does. Request: a header the file writes on several lines goes out as those lines, in
 * order (HTTP/1.1 and HTTP/2), except Cookie over HTTP/1.1, one line joined by "; " as
 * RFC 6265 §5.4 requires of a client.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer as createHttp2Server, type Http2Server } from 'node:http2';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { parseRecords } from './helpers/records.js';

const tmp = tempDir('reqflow-headers-');
let server: Server;
let base = '';
/** The raw request heads received. */
const heads: string[] = [];

beforeAll(async () => {
  server = createServer((socket) => {
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      if (!data.includes('\r\n\r\n')) return;
      heads.push(data.slice(0, data.indexOf('\r\n\r\n')));
      socket.end(
        'HTTP/1.1 200 OK\r\nX-Multi: a\r\nContent-Type: text/plain\r\nX-Multi: b, c\r\nContent-Type: text/html\r\n' +
          'Link: <https://example.com/1>; rel="next"\r\nLink: <https://example.com/9>; rel="last"\r\nX-Once: Tue, 24 Nov 2026 10:00:00 GMT\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok',
      );
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

const run = (text: string, ...args: string[]) => runCli(['run', tmp.write(`h${heads.length}.http`, text.replaceAll('BASE', base)), ...args], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });

test('a repeated response field: each value in -o json and each line in -v; one Content-Type', async () => {
  const json = await run('GET BASE/json\n', '-o', 'json');
  expect(json.code).toBe(0);
  const [record] = parseRecords(json.stdout);
  expect(record?.headers).toMatchObject({
    'x-multi': ['a', 'b, c'],
    link: ['<https://example.com/1>; rel="next"', '<https://example.com/9>; rel="last"'],
    'x-once': 'Tue, 24 Nov 2026 10:00:00 GMT',
    'content-type': 'text/plain',
  });
  const verbose = await run('GET BASE/verbose\n', '-v');
  expect(verbose.code).toBe(0);
  const shown = verbose.stdout + verbose.stderr;
  expect(shown).toMatch(/^x-multi: a$/m);
  expect(shown).toMatch(/^x-multi: b, c$/m);
  expect(shown).toMatch(/^link: <https:\/\/example\.com\/9>; rel="last"$/m);
});

test('repeated request lines go out as written, in order; Cookie over HTTP/1.1 is one line', async () => {
  heads.length = 0;
  const result = await run('GET BASE/req\nAccept: application/json\nX-Trace: one\naccept: text/plain\nCookie: a=1\nCookie: b=2\nX-Tag: {{t}}\nX-Tag: {{t}}-2\n', '-e', 't=v');
  expect(result.code).toBe(0);
  const lines = (heads[0] ?? '').split('\r\n');
  // The second line keeps the first spelling: one header, two lines.
  expect(lines.filter((line) => /^accept:/i.test(line))).toEqual(['Accept: application/json', 'Accept: text/plain']);
  expect(lines.filter((line) => /^cookie:/i.test(line))).toEqual(['Cookie: a=1; b=2']);
  expect(lines.filter((line) => /^x-tag:/i.test(line))).toEqual(['X-Tag: v', 'X-Tag: v-2']);
  expect(lines.filter((line) => /^x-trace:/i.test(line))).toEqual(['X-Trace: one']);
});

test('-v and --dry-run show each line; a secret header masks each line', async () => {
  const text = 'GET BASE/req\nAccept: application/json\nAccept: text/plain\nX-Api-Key: k1secret\nX-Api-Key: k2secret\n';
  const verbose = await run(text, '-v');
  expect(verbose.code).toBe(0);
  expect(verbose.stderr).toMatch(/^Accept: application\/json\nAccept: text\/plain$/m);
  expect(verbose.stderr).toMatch(/^X-Api-Key: •••\nX-Api-Key: •••$/m);
  const dry = await run(text, '--dry-run');
  expect(dry.code).toBe(0);
  expect(dry.stdout).toMatch(/^Accept: application\/json\nAccept: text\/plain$/m);
  expect(`${verbose.stdout}${verbose.stderr}${dry.stdout}`).not.toMatch(/k[12]secret/);
});

test('a variable with a line break in one of the lines is still refused (exit 3)', async () => {
  heads.length = 0;
  const result = await run('GET BASE/req\nX-Tag: fine\nX-Tag: {{bad}}\n', '-e', 'bad=a\nInjected: yes');
  expect(result.code).toBe(3);
  expect(result.stderr).toMatch(/header X-Tag .* line break, from \{\{bad\}\}/);
  expect(heads).toEqual([]);
});

test('Host written twice is refused naming the line (a server must answer 400)', async () => {
  const result = await run('GET /req\nHost: BASE_HOST\nHost: other.example\n'.replace('BASE_HOST', base.slice('http://'.length)));
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/:3:1: .*Host is written twice/);
});

test('over HTTP/2 every line is its own field, Cookie crumbs included (RFC 9113 §8.2.3)', async () => {
  const h2: Http2Server = createHttp2Server((req, res) => res.end(JSON.stringify(req.rawHeaders)));
  await new Promise<void>((resolve) => h2.listen(0, '127.0.0.1', resolve));
  try {
    const h2base = `http://127.0.0.1:${(h2.address() as AddressInfo).port}`;
    const result = await run(`GET ${h2base}/two HTTP/2\nAccept: application/json\nAccept: text/plain\nCookie: a=1\nCookie: b=2\n`, '-o', 'raw');
    expect(result.code).toBe(0);
    const raw = JSON.parse(result.stdout) as string[];
    const fields = (name: string): string[] => raw.filter((_, i) => i % 2 === 1 && raw[i - 1] === name);
    expect(fields('accept')).toEqual(['application/json', 'text/plain']);
    expect(fields('cookie')).toEqual(['a=1', 'b=2']);
  } finally {
    await new Promise((resolve) => h2.close(resolve));
  }
});

test('a YAML header given as a list goes out as that many lines; a list of objects is refused naming the field', async () => {
  heads.length = 0;
  const file = tmp.write('list.yaml', `url: ${base}/yaml\nheaders:\n  Accept: [application/json, text/plain]\n  X-One: "1"\n`);
  const ok = await runCli(['run', file], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
  expect(ok.code).toBe(0);
  const lines = (heads[0] ?? '').split('\r\n');
  expect(lines.filter((line) => /^accept:/i.test(line))).toEqual(['Accept: application/json', 'Accept: text/plain']);
  const bad = await runCli(['run', tmp.write('bad.yaml', `url: ${base}/yaml\nheaders:\n  Accept: [{a: 1}]\n`)], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/headers\.Accept: expected a string, or a list of strings/);
});

test('two Authorization lines, one of them the Basic shorthand: two lines go out, that one encoded, a token sent as written', async () => {
  heads.length = 0;
  const result = await run('GET BASE/a\nAuthorization: Basic dXNlcjpwYXNz\nAuthorization: Bearer s3cretTokenXYZ\n\n###\nGET BASE/b\nauthorization: Bearer tok3nABCD\nauthorization: Basic alice s3cret\n');
  expect(result.code).toBe(0);
  const authorization = (head: string | undefined): string[] => (head ?? '').split('\r\n').filter((line) => /^authorization:/i.test(line));
  expect(authorization(heads[0])).toEqual(['Authorization: Basic dXNlcjpwYXNz', 'Authorization: Bearer s3cretTokenXYZ']);
  expect(authorization(heads[1])).toEqual(['authorization: Bearer tok3nABCD', `authorization: Basic ${Buffer.from('alice:s3cret').toString('base64')}`]);
});

test('two Authorization lines, one of them the Digest shorthand: refused naming it (exit 2), nothing sent', async () => {
  heads.length = 0;
  const result = await run('GET BASE/digest\nAuthorization: Digest alice s3cret\nAuthorization: Bearer tok3nABCD\n');
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/^reqflow: request "[^"]+" writes Authorization on 2 lines, one of them "Digest user password"/);
  expect(`${result.stdout}${result.stderr}`).not.toContain('s3cret');
  expect(heads).toEqual([]);
});

test('Host as a YAML/JSON list, or written twice in a .ws file, is refused as in a .http file, naming the field or the line (exit 2)', async () => {
  heads.length = 0;
  const yaml = await runCli(['run', tmp.write('host.yaml', `requests:\n  - url: ${base}/h\n    headers:\n      Host: [a.example, b.example]\n`)], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
  expect(yaml.code).toBe(2);
  expect(yaml.stderr).toMatch(/host\.yaml: requests\[0\]\.headers\.Host: more than one value: a request has one Host header/);
  const json = await runCli(['run', tmp.write('host.json', JSON.stringify({ url: `${base}/h`, headers: { Host: 'a.example', host: 'b.example' } }))], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
  expect(json.code).toBe(2);
  expect(json.stderr).toMatch(/host\.json: headers\.host: more than one value: a request has one Host header/);
  const ws = await runCli(['run', tmp.write('host.ws', `WEBSOCKET ws://${base.slice('http://'.length)}/chat\nHost: a.example\nHost: b.example\n\n### Ping\n> hello\n`)], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
  expect(ws.code).toBe(2);
  expect(ws.stderr).toMatch(/host\.ws:3:1: .*Host is written twice: a request has one Host header/);
  expect(heads).toEqual([]);
});

test('a header value with a control character is refused the same way over HTTP/1.1 and HTTP/2 (exit 2), nothing sent', async () => {
  const h2: Http2Server = createHttp2Server((_req, res) => res.end('sent'));
  await new Promise<void>((resolve) => h2.listen(0, '127.0.0.1', resolve));
  try {
    const h2base = `http://127.0.0.1:${(h2.address() as AddressInfo).port}`;
    heads.length = 0;
    for (const [request, extra] of [[`url: ${base}/ctl`, ''], [`url: ${h2base}/ctl`, '\nhttpVersion: "2"']] as const) {
      for (const header of ['X-Ctl: "b\\x01c"', 'X-Ctl: ["ok", "b\\x7fc"]']) {
        const result = await runCli(['run', tmp.write('ctl.yaml', `${request}${extra}\nheaders:\n  ${header}\n`), '-o', 'raw'], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(/^reqflow: ctl\.yaml: request "request-1": GET http:\/\/127\.0\.0\.1:\d+\/ctl: header "X-Ctl" cannot be sent: its value holds a character HTTP does not allow \(U\+00(01|7F)\)\n/);
        expect(result.stdout).toBe('');
      }
    }
    expect(heads).toEqual([]);
  } finally {
    await new Promise((resolve) => h2.close(resolve));
  }
});

test('-v shows Cookie as it went: one line over HTTP/1.1 (joined), a line each over HTTP/2', async () => {
  const h2: Http2Server = createHttp2Server((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => h2.listen(0, '127.0.0.1', resolve));
  try {
    const h2base = `http://127.0.0.1:${(h2.address() as AddressInfo).port}`;
    const cookies = 'Cookie: sid=abcSECRET\nCookie: other=defSECRET\nX-Plain: a\nX-Plain: b\n';
    const http1 = await run(`GET BASE/cookies\n${cookies}`, '-v');
    expect(http1.code).toBe(0);
    expect(http1.stderr.match(/^Cookie: .*$/gm)).toEqual(['Cookie: •••']);
    expect(http1.stderr).toMatch(/^X-Plain: a\nX-Plain: b$/m);
    const http2 = await run(`GET ${h2base}/cookies HTTP/2\n${cookies}`, '-v');
    expect(http2.code).toBe(0);
    expect(http2.stderr.match(/^Cookie: .*$/gm)).toEqual(['Cookie: •••', 'Cookie: •••']);
    expect(`${http1.stderr}${http2.stderr}`).not.toContain('SECRET');
  } finally {
    await new Promise((resolve) => h2.close(resolve));
  }
});
