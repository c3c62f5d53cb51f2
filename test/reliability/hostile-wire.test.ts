/**
 * Hostile bytes on the wire, from a raw TCP server that writes exactly what each test says:
 * content codings, broken framing, odd status lines, redirects. Each is either read as
 * browsers and curl read it, or a one-line exit 4 naming what the server did wrong — never a
 * stack trace, a misleading message or a wrong exit code.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRawServer } from '../helpers/fault-server.js';
import { parseRecords } from '../helpers/records.js';

const tmp = tempDir('reqflow-wire-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
const JSON_TEXT = '{"a":1}';

/** What the server answers to each path: the response's bytes, whether it then closes, and bytes it sends a moment later (a packet of their own). */
type Answer = { bytes: Buffer | string; close?: boolean; then?: Buffer };
const answers = new Map<string, (head: string) => Answer>();
let server: Awaited<ReturnType<typeof startRawServer>>;
let base = '';

/** A response with these header lines (each `Name: value`) and this body. */
function response(status: string, headers: string[], body: Buffer | string = ''): Buffer {
  return Buffer.concat([Buffer.from(`HTTP/1.1 ${status}\r\n${headers.map((line) => `${line}\r\n`).join('')}\r\n`, 'latin1'), Buffer.from(body)]);
}

beforeAll(async () => {
  server = await startRawServer((socket) => {
    socket.on('error', () => undefined);
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = buffered.slice(0, end);
      buffered = '';
      const path = head.split(' ')[1] ?? '/';
      const answer = answers.get(path)?.(head) ?? { bytes: response('404 Not Found', ['Content-Length: 0']) };
      if (answer.close) socket.end(answer.bytes);
      else socket.write(answer.bytes);
      const then = answer.then;
      if (then) setTimeout(() => socket.writable && socket.write(then), 50);
    });
  });
  base = server.url;
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const run = (name: string, text: string, ...args: string[]) => runCli(['run', tmp.write(name, text.replaceAll('BASE', base)), ...args], { env });
const noCrash = /internal error|\n\s+at /;

test('stacked codings (gzip, gzip; deflate, br), raw deflate and zlib deflate are decoded as browsers and curl do', async () => {
  const body = Buffer.from(JSON_TEXT);
  const coded: Record<string, [string, Buffer]> = {
    '/gzip-gzip': ['gzip, gzip', gzipSync(gzipSync(body))],
    '/deflate-br': ['deflate, br', brotliCompressSync(deflateSync(body))],
    '/two-lines': ['gzip', gzipSync(gzipSync(body))], // the header written twice: the same list
    '/raw-deflate': ['deflate', deflateRawSync(body)],
    '/zlib-deflate': ['deflate', deflateSync(body)],
    '/upper-case': [' GZIP ', gzipSync(body)],
  };
  for (const [path, [coding, bytes]] of Object.entries(coded)) {
    const lines = path === '/two-lines' ? ['Content-Encoding: gzip', 'Content-Encoding: gzip'] : [`Content-Encoding: ${coding}`];
    answers.set(path, () => ({ bytes: response('200 OK', ['Content-Type: application/json', ...lines, `Content-Length: ${bytes.length}`], bytes) }));
    const result = await run(`coded${path.slice(1)}.http`, `GET BASE${path}\n`, '-o', 'json');
    expect({ path, code: result.code, stderr: result.stderr }).toEqual({ path, code: 0, stderr: '' });
    expect(parseRecords(result.stdout)[0]).toMatchObject({ status: 200, body: { a: 1 } });
  }
});

test('a transfer coding before chunked (Transfer-Encoding: gzip, chunked), which Node leaves in place, is decoded too', async () => {
  const zipped = gzipSync(Buffer.from(JSON_TEXT));
  answers.set('/te-gzip', () => ({ bytes: response('200 OK', ['Content-Type: application/json', 'Transfer-Encoding: gzip, chunked'], Buffer.concat([Buffer.from(`${zipped.length.toString(16)}\r\n`), zipped, Buffer.from('\r\n0\r\n\r\n')])) }));
  const result = await run('te-gzip.http', 'GET BASE/te-gzip\n', '-o', 'json');
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(parseRecords(result.stdout)[0]).toMatchObject({ status: 200, body: { a: 1 } });
});

test('an empty body in a coding (HEAD, 304, a 200 with none) is empty, not a decoding failure', async () => {
  answers.set('/head-gzip', () => ({ bytes: response('200 OK', ['Content-Type: application/json', 'Content-Encoding: gzip', 'Content-Length: 27']) }));
  answers.set('/304-gzip', () => ({ bytes: response('304 Not Modified', ['Content-Encoding: gzip', 'ETag: "x"']) }));
  answers.set('/empty-br', () => ({ bytes: response('200 OK', ['Content-Type: application/json', 'Content-Encoding: br', 'Content-Length: 0']) }));
  const result = await run('empty-coded.http', 'HEAD BASE/head-gzip\n\n###\nGET BASE/304-gzip\nIf-None-Match: "x"\n\n###\nGET BASE/empty-br\n', '-o', 'json');
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(parseRecords(result.stdout).map((r) => [r.status, r.body])).toEqual([
    [200, ''],
    [304, ''],
    [200, ''],
  ]);
});

test('a body that does not decode as its coding says (plain text, cut short): exit 4 saying so, not "request failed"', async () => {
  const cut = gzipSync(Buffer.from('x'.repeat(100_000))).subarray(0, 30);
  answers.set('/claims-gzip', () => ({ bytes: response('200 OK', ['Content-Type: application/json', 'Content-Encoding: gzip', 'Content-Length: 7'], JSON_TEXT) }));
  answers.set('/gzip-cut', () => ({ bytes: response('200 OK', ['Content-Type: text/plain', 'Content-Encoding: gzip', `Content-Length: ${cut.length}`], cut) }));
  // Brotli's decoder names its failures ERR__ERROR_FORMAT_… (any of a dozen, by where the bytes go wrong).
  answers.set('/claims-br', () => ({ bytes: response('200 OK', ['Content-Type: text/plain', 'Content-Encoding: br', 'Content-Length: 29'], 'hello world garbage data here') }));
  for (const [path, reason] of [['/claims-gzip', 'incorrect header check'], ['/gzip-cut', 'unexpected end of file'], ['/claims-br', 'Decompression failed']] as const) {
    for (const output of ['pretty', 'json', 'raw']) {
      const result = await run('bad-coding.http', `GET BASE${path}\n`, '-o', output);
      expect({ path, output, code: result.code }).toEqual({ path, output, code: 4 });
      expect(result.stderr).toContain(`reqflow: 127.0.0.1:${new URL(base).port} sent a body that does not decode as its Content-Encoding says (${reason})\n`);
      expect(result.stderr).not.toMatch(noCrash);
    }
  }
});

test('concatenated gzip members are decoded whole (RFC 1952 §2.2), in one packet or two', async () => {
  const first = gzipSync(Buffer.from('{"a":'));
  const second = gzipSync(Buffer.from('1}'));
  const head = (length: number): string => `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${length}\r\n\r\n`;
  answers.set('/members', () => ({ bytes: Buffer.concat([Buffer.from(head(first.length + second.length)), first, second]) }));
  const whole = await run('members.http', 'GET BASE/members\n', '-o', 'json');
  expect(whole).toMatchObject({ code: 0, stderr: '' });
  expect(parseRecords(whole.stdout)[0]).toMatchObject({ body: { a: 1 } });
  // The second member in a packet of its own, after the first has been decoded.
  answers.set('/members-apart', () => ({ bytes: Buffer.concat([Buffer.from(head(first.length + second.length)), first]), then: second }));
  const apart = await run('members-apart.http', 'GET BASE/members-apart\n', '-o', 'raw');
  expect(apart).toMatchObject({ code: 0, stdout: '{"a":1}', stderr: '' });
});

test('bytes after the end of the coded data (garbage, zero padding; gzip, deflate, raw deflate, br; in the last packet or one of their own) are exit 4 saying so in every output mode — they hung until the run gave up, or read as a bad gzip member', async () => {
  const text = Buffer.from('hello\n');
  const cases: Array<[string, string, Buffer, Buffer]> = [
    ['/gzip-garbage', 'gzip', gzipSync(text), Buffer.from('GARBAGE')],
    ['/gzip-zeros', 'gzip', gzipSync(text), Buffer.alloc(8)],
    ['/deflate-garbage', 'deflate', deflateSync(text), Buffer.from('GARBAGE')],
    ['/raw-deflate-garbage', 'deflate', deflateRawSync(text), Buffer.from('GARBAGE')],
    ['/br-garbage', 'br', brotliCompressSync(text), Buffer.from('GARBAGE')],
  ];
  const port = new URL(base).port;
  for (const [path, coding, coded, after] of cases) {
    const head = Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Encoding: ${coding}\r\nContent-Length: ${coded.length + after.length}\r\n\r\n`);
    answers.set(path, () => ({ bytes: Buffer.concat([head, coded, after]) }));
    answers.set(`${path}-apart`, () => ({ bytes: Buffer.concat([head, coded]), then: after }));
    for (const [where, output] of [['', 'pretty'], ['', 'json'], ['', 'raw'], ['-apart', 'raw']] as const) {
      const result = await run('after-end.http', `GET BASE${path}${where}\n`, '-o', output);
      expect({ path, where, output, code: result.code }).toEqual({ path, where, output, code: 4 });
      expect(result.stderr).toContain(`reqflow: 127.0.0.1:${port} sent bytes after the end of its ${coding} body\nhint: its Content-Encoding does not cover them, and a body is shown only as it was sent (curl refuses it too)\n`);
      expect(result.stderr).not.toMatch(noCrash);
    }
  }
});

test('a coding reqflow cannot undo (zstd) is shown as received with a warning saying so; more than 5 codings is exit 4', async () => {
  answers.set('/zstd', () => ({ bytes: response('200 OK', ['Content-Type: text/plain', 'Content-Encoding: zstd', 'Content-Length: 5'], 'bytes') }));
  const result = await run('zstd.http', 'GET BASE/zstd\n', '-o', 'raw');
  expect(result).toMatchObject({ code: 0, stdout: 'bytes' });
  expect(result.stderr).toBe('reqflow: warning: the body is in a content coding reqflow does not undo ("zstd"): shown as received (-o raw writes its bytes)\n');
  answers.set('/many', () => ({ bytes: response('200 OK', ['Content-Type: text/plain', `Content-Encoding: ${Array(6).fill('gzip').join(', ')}`, 'Content-Length: 2'], 'xx') }));
  const many = await run('many.http', 'GET BASE/many\n');
  expect(many.code).toBe(4);
  expect(many.stderr).toContain('sent a body in more than 5 content codings (gzip, gzip, gzip, gzip, gzip, gzip)\n');
});

test('a gzip bomb wrapped in gzip again ends at --max-size, exit 4', async () => {
  const bomb = gzipSync(gzipSync(Buffer.alloc(200 * 1024 * 1024)));
  answers.set('/bomb', () => ({ bytes: response('200 OK', ['Content-Type: application/json', 'Content-Encoding: gzip, gzip', `Content-Length: ${bomb.length}`], bomb) }));
  const result = await run('bomb.http', 'GET BASE/bomb\n', '-o', 'json', '--max-size', '1000000');
  expect(result.code).toBe(4);
  expect(parseRecords(result.stdout)[0]?.error).toMatchObject({ message: expect.stringContaining('--max-size') });
}, 30_000);

test('broken chunked framing after the headers (a bad size, a chunk longer than announced) is named as such, not as a reset; pretty, -o json, -o raw', async () => {
  const chunked = ['Content-Type: text/plain', 'Transfer-Encoding: chunked'];
  answers.set('/bad-size', () => ({ bytes: response('200 OK', chunked, 'zz\r\nhello\r\n0\r\n\r\n') }));
  answers.set('/too-long', () => ({ bytes: response('200 OK', chunked, '3\r\nhello\r\n0\r\n\r\n') }));
  const port = new URL(base).port;
  for (const [path, reason] of [
    ['/bad-size', 'Invalid character in chunk size (HPE_INVALID_CHUNK_SIZE)'],
    ['/too-long', 'Expected LF after chunk data (HPE_STRICT)'],
  ] as const) {
    for (const output of ['pretty', 'json', 'raw']) {
      const result = await run('framing.http', `GET BASE${path}\n`, '-o', output);
      expect({ path, output, code: result.code }).toEqual({ path, output, code: 4 });
      expect(result.stderr).toContain(`reqflow: 127.0.0.1:${port} sent a malformed HTTP response: ${reason}\n`);
      expect(result.stderr).not.toContain('was reset');
      expect(result.stderr).not.toMatch(noCrash);
    }
  }
});

test('a chunked body\'s trailer fields are the -o json record\'s "trailers", a field written twice kept line by line (as headers are)', async () => {
  const chunked = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum, X-Part\r\n\r\n7\r\n{"a":1}\r\n0\r\nX-Checksum: abc\r\nX-Part: 1, one\r\nX-Part: 2\r\n\r\n';
  answers.set('/chunked-trailers', () => ({ bytes: chunked }));
  const result = await run('chunked-trailers.http', 'GET BASE/chunked-trailers\n', '-o', 'json');
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(parseRecords(result.stdout)[0]).toMatchObject({ body: { a: 1 }, trailers: { 'x-checksum': 'abc', 'x-part': ['1, one', '2'] } });
});

test('trailers past the 16 KiB header limit, after the body, are named as such (not a reset)', async () => {
  const trailers = Array.from({ length: 20 }, (_, i) => `X-T${i}: ${'a'.repeat(1000)}\r\n`).join('');
  answers.set('/trailers', () => ({ bytes: response('200 OK', ['Content-Type: text/plain', 'Transfer-Encoding: chunked'], `1\r\nx\r\n0\r\n${trailers}\r\n`) }));
  const result = await run('trailers.http', 'GET BASE/trailers\n', '-o', 'json');
  expect(result.code).toBe(4);
  expect(parseRecords(result.stdout)[0]?.error).toMatchObject({ message: `127.0.0.1:${new URL(base).port} sent response headers over the 16 KiB limit` });
});

test('a header the parser refuses (a NUL in its value) is a malformed response, not "is it an HTTP server?"', async () => {
  answers.set('/nul', () => ({ bytes: Buffer.from('HTTP/1.1 200 OK\r\nX-A: a\0b\r\nContent-Length: 2\r\n\r\nok', 'latin1') }));
  const result = await run('nul.http', 'GET BASE/nul\n');
  expect(result.code).toBe(4);
  expect(result.stderr).toBe(`reqflow: 127.0.0.1:${new URL(base).port} sent a malformed HTTP response: Invalid header value char (HPE_INVALID_HEADER_TOKEN)\nhint: a broken or hostile server, or a proxy between: reqflow reads only well-formed HTTP/1.1\n`);
});

test('lines ended by a bare LF (the status line, a header, a chunk size) are exit 4 saying so in every output mode: never read leniently', async () => {
  answers.set('/lf-status', () => ({ bytes: 'HTTP/1.1 200 OK\nContent-Type: text/plain\nContent-Length: 5\n\nhello', close: true }));
  answers.set('/lf-header', () => ({ bytes: 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\nContent-Length: 5\r\n\r\nhello', close: true }));
  answers.set('/lf-chunk', () => ({ bytes: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n', close: true }));
  const port = new URL(base).port;
  for (const [path, after] of [['/lf-status', 'response line'], ['/lf-header', 'header value'], ['/lf-chunk', 'chunk size']]) {
    for (const output of ['pretty', 'json', 'raw']) {
      const result = await run('bare-lf.http', `GET BASE${path}\n`, '-o', output);
      expect({ path, output, code: result.code }).toEqual({ path, output, code: 4 });
      expect(result.stderr).toContain(`reqflow: 127.0.0.1:${port} ended a line with a bare LF where HTTP/1.1 writes CRLF (after the ${after})\nhint: a server that does not speak HTTP/1.1 as written (RFC 9112 §2.2); curl and browsers guess that a bare LF ends a line, reqflow reads a response only as it was sent\n`);
      expect(result.stderr).not.toMatch(noCrash);
    }
  }
});

test('a status below 100 (099, 000) is exit 4 naming it, not a success; 999 and a missing reason phrase are read as sent', async () => {
  answers.set('/099', () => ({ bytes: 'HTTP/1.1 099 Low\r\nContent-Length: 2\r\n\r\nok' }));
  answers.set('/000', () => ({ bytes: 'HTTP/1.1 000 Zero\r\nContent-Length: 2\r\n\r\nok' }));
  answers.set('/999', () => ({ bytes: 'HTTP/1.1 999 Odd\r\nContent-Length: 2\r\n\r\nok' }));
  answers.set('/no-reason', () => ({ bytes: 'HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok' }));
  for (const [path, status] of [['/099', 99], ['/000', 0]] as const) {
    const result = await run('low.http', `GET BASE${path}\n`, '-o', 'json');
    expect({ path, code: result.code }).toEqual({ path, code: 4 });
    expect(parseRecords(result.stdout)[0]?.error).toMatchObject({ exitCode: 4, message: `127.0.0.1:${new URL(base).port} answered with status ${status}: not an HTTP status code (100–999)` });
  }
  const odd = await run('odd.http', 'GET BASE/999\n\n###\nGET BASE/no-reason\n', '-o', 'json');
  expect(odd.code).toBe(1); // 999 ≥ 400: a failure, as documented
  expect(parseRecords(odd.stdout).map((r) => [r.status, r.statusText, r.body])).toEqual([
    [999, 'Odd', 'ok'],
    [200, '', 'ok'],
  ]);
});

test('a redirect with two different Locations is exit 4 showing both (browsers refuse it too); the same one twice is followed', async () => {
  answers.set('/two-locations', () => ({ bytes: response('302 Found', ['Location: /landed', 'Location: http://evil.invalid/', 'Content-Length: 0']) }));
  answers.set('/same-twice', () => ({ bytes: response('302 Found', ['Location: /landed', 'Location: /landed', 'Content-Length: 0']) }));
  answers.set('/landed', () => ({ bytes: response('200 OK', ['Content-Type: text/plain', 'Content-Length: 6'], 'landed') }));
  const refused = await run('two-locations.http', 'GET BASE/two-locations\n', '-L');
  expect(refused.code).toBe(4);
  expect(refused.stderr).toBe('reqflow: the server redirected to 2 different locations: "/landed", "http://evil.invalid/"\nhint: run without -L to see the response itself\n');
  // Without -L the response is shown as sent: both lines.
  const shown = await run('two-locations.http', 'GET BASE/two-locations\n', '-o', 'json');
  expect(parseRecords(shown.stdout)[0]?.headers).toMatchObject({ location: ['/landed', 'http://evil.invalid/'] });
  const same = await run('same-twice.http', 'GET BASE/same-twice\n', '-L', '-o', 'raw');
  expect(same).toMatchObject({ code: 0, stdout: 'landed' });
});

test('a redirect to another origin naming credentials (http://user:pass@other/) sends none there, and -v says so', async () => {
  // localhost is another origin than 127.0.0.1: the same server sees what arrives.
  const heads: string[] = [];
  answers.set('/to-userinfo', () => ({ bytes: response('302 Found', [`Location: http://planted:pw-from-server@localhost:${new URL(base).port}/arrived`, 'Content-Length: 0']) }));
  answers.set('/arrived', (head) => {
    heads.push(head);
    return { bytes: response('200 OK', ['Content-Length: 2'], 'ok') };
  });
  const result = await run('userinfo.http', 'GET BASE/to-userinfo\nAuthorization: Bearer user-token-123\n', '-L', '-v');
  expect(result.code).toBe(0);
  expect(heads).toHaveLength(1);
  expect(heads[0]).not.toMatch(/^authorization:/im);
  expect(result.stderr).toContain(`reqflow: redirected to http://localhost:${new URL(base).port}/arrived; not sent there (another origin): the credentials in the Location, Authorization\n`);
  expect(result.stdout + result.stderr).not.toContain('pw-from-server');
  expect(result.stdout + result.stderr).not.toContain('user-token-123');
});

test('JSON in UTF-16 with a byte-order mark and no charset named: pretty reads it as -o json does, not as "not valid UTF-8"', async () => {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"a":"é"}', 'utf16le')]);
  const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('{"a":"é"}', 'utf16le').swap16()]);
  answers.set('/utf16le-bom', () => ({ bytes: response('200 OK', ['Content-Type: application/json', `Content-Length: ${le.length}`], le) }));
  answers.set('/utf16be-bom', () => ({ bytes: response('200 OK', ['Content-Type: application/json', `Content-Length: ${be.length}`], be) }));
  for (const path of ['/utf16le-bom', '/utf16be-bom']) {
    const pretty = await run('utf16.http', `GET BASE${path}\n`);
    expect({ path, code: pretty.code, stdout: pretty.stdout }).toEqual({ path, code: 0, stdout: '{\n  "a": "é"\n}\n' });
    expect(pretty.stderr).toMatch(/^HTTP\/1\.1 200 OK {2}\d+ ms\n$/); // the status line, no warning
    const json = await run('utf16.http', `GET BASE${path}\n`, '-o', 'json');
    expect(parseRecords(json.stdout)[0]?.body).toEqual({ a: 'é' });
  }
});

// Half of a reply nobody asked for rides behind each response; its other half comes before the
// next answer on that connection. Node keeps the connection, so the next request reads garbage.
test('bytes left behind a response on a kept-alive connection: a GET goes once more on a new one; a POST is exit 4 saying it may have arrived', async () => {
  const trailing = await startRawServer((socket) => {
    socket.on('error', () => undefined);
    let answered = 0;
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n\r\n'); end !== -1; end = buffered.indexOf('\r\n\r\n')) {
        buffered = buffered.slice(end + 4);
        socket.write(`${answered++ > 0 ? 'gth: 0\r\n\r\n' : ''}${response('200 OK', ['Content-Length: 2'], 'ok').toString('latin1')}HTTP/1.1 500 Not Yours\r\nContent-Len`, 'latin1');
      }
    });
  });
  try {
    const three = (method: string): string => [1, 2, 3].map((n) => `### ${n}\n${method} ${trailing.url}/${n}`).join('\n\n');
    const gets = await runCli(['run', tmp.write('trailing-get.http', three('GET')), '-o', 'json', '--no-history'], { env });
    expect(gets.code).toBe(0);
    expect(parseRecords(gets.stdout).map((r) => [r.status, r.body])).toEqual([[200, 'ok'], [200, 'ok'], [200, 'ok']]);
    const verbose = await runCli(['run', tmp.write('trailing-get-v.http', three('GET')), '-v', '--no-history'], { env });
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toMatch(/answered the GET on a kept-alive connection with bytes that are not HTTP: sent again on a new connection/);
    const posts = await runCli(['run', tmp.write('trailing-post.http', three('POST')), '--no-history'], { env });
    expect(posts.code).toBe(4);
    expect(posts.stderr).toMatch(/did not answer with valid HTTP\nhint: on a kept-alive connection it had answered on before .*the POST may or may not have reached the server/);
    expect(posts.stderr).not.toMatch(noCrash);
  } finally {
    await trailing.close();
  }
});
