/**
 * What a request file says is what arrives, or the file is refused naming its line or field —
 * never a shorter, merged or re-versioned request. Each case here once went out otherwise (a
 * review by a recording server): a `#` from a value cut the rest of the URL, a YAML/JSON
 * header written twice in two spellings lost one, fields beside `requests:` did nothing, a
 * JSON key written twice kept the last, a big number in a JSON body was rounded, a written
 * Content-Length that the body contradicts desynchronised the connection, a comment after the
 * URL was sent as part of it, and HTTP/1.0 went out as HTTP/1.1. A real server on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { basename, join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

const tmp = tempDir('reqflow-sent-as-written-');
let server: Recorder;

beforeAll(async () => {
  server = await startRecorder();
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

let files = 0;
async function run(name: string, text: string, ...args: string[]) {
  server.received.length = 0;
  const file = tmp.write(`${(files += 1)}-${name}`, text.replaceAll('BASE', server.url));
  const result = await runCli(['run', file, '-o', 'raw', ...args], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
  return { ...result, file, received: [...server.received] };
}

describe('a /* */ comment closed on its own line', () => {
  test('between the annotations and the request line keeps them the request\'s: # @note still asks, the name holds (it split them off, and the DELETE went out unasked)', async () => {
    const noted = await run('noted.http', '# @note careful\n/* doc */\nDELETE BASE/x\n');
    expect(noted.code).toBe(2);
    expect(noted.stderr).toContain('asks for confirmation before it is sent: careful; not sent');
    expect(noted.received).toEqual([]);
    const named = await run('named.http', '### five\n# @name fiveb\n/* doc */\nGET BASE/y\n\n/* between */\nGET BASE/z\n', '--list');
    expect(named.stdout).toBe(`fiveb\tGET\t${server.url}/y\nrequest-2\tGET\t${server.url}/z\n`);
  });
});

describe('a body line starting with "<> "', () => {
  test('inside the body is text, sent; JetBrains\' response references after the body are not', async () => {
    const result = await run('diamond.http', 'POST BASE/d\nContent-Type: text/plain\n\nList<String> a;\n<> operator is the diamond\nend\n\n<> 2024-01-01T000000.200.json\n<> 2024-01-02T000000.200.json\n\n###\nPOST BASE/e\nContent-Type: text/plain\n\nbody\n\n> {% client.log(1) %}\n\n<> 2024-01-03T000000.200.json\n\n###\nPOST BASE/f\nContent-Type: text/plain\n\nbody2\n\n<> 2024-01-04T000000.200.json\n/* a comment */\n');
    expect(result.code).toBe(0);
    expect(result.received.map((r) => r.body.toString())).toEqual(['List<String> a;\n<> operator is the diamond\nend', 'body', 'body2']);
  });
});

describe('a file with CR line ends', () => {
  test('is exit 2 naming the line and column of the first CR, nothing sent (its headers and body went out inside the URL, exit 0)', async () => {
    const result = await run('cr.http', 'POST BASE/a\rContent-Type: text/plain\r\rhello\r');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cr\.http:1:\d+: the request line holds a CR that ends no line: reqflow reads lines ended by LF or CRLF\nhint: /);
    expect(result.received).toEqual([]);
    const crlf = await run('crlf.http', 'POST BASE/a\r\nContent-Type: text/plain\r\n\r\nhello\r\n');
    expect(crlf.code).toBe(0);
    expect(crlf.received.map((r) => [r.url, r.body.toString()])).toEqual([['/a', 'hello']]);
  });
});

describe('a header named __proto__', () => {
  test.each([
    ['proto.http', 'GET BASE/p\n__proto__: v\nX-A: 1\n', 'proto.http:2:1: reqflow cannot send a header named __proto__'],
    ['proto.json', '{"url": "BASE/p", "headers": {"__proto__": "v", "X-A": "1"}}', 'headers.__proto__: reqflow cannot send a header named __proto__'],
    ['proto.yaml', 'url: BASE/p\nheaders:\n  __proto__: v\n  X-A: "1"\n', 'headers.__proto__: reqflow cannot send a header named __proto__'],
  ])('in %s is exit 2 naming the line or field, nothing sent (a JavaScript object took it as its prototype: it was dropped silently)', async (name, text, message) => {
    const result = await run(name, text);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.received).toEqual([]);
  });

  test('from reqflow send -H too', async () => {
    server.received.length = 0;
    const result = await runCli(['send', `${server.url}/p`, '-H', '__proto__: v'], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('-H __proto__: reqflow cannot send a header named __proto__');
    expect(server.received).toEqual([]);
  });
});

describe('a # that a value puts in the URL', () => {
  test('cuts nothing: exit 3 naming the line and the variable, nothing sent', async () => {
    const result = await run('cut.http', '@seg = p#q\n\nGET BASE/x/{{seg}}/tail?n=1\n');
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/cut\.http:3: the URL of request "request-1" would be cut at a # from a value, from \{\{seg\}\}: what follows it would not be sent\n/);
    expect(result.received).toEqual([]);
  });

  test('{{%name}} sends it encoded, whole', async () => {
    const result = await run('encoded.http', '@seg = p#q\n\nGET BASE/x/{{%seg}}/tail?n=1\n');
    expect(result.code).toBe(0);
    expect(result.received.map((r) => r.url)).toEqual(['/x/p%23q/tail?n=1']);
  });
});

describe('the request line', () => {
  test('whitespace before a # is no part of the URL (the fragment is never sent)', async () => {
    const result = await run('hash.http', 'GET BASE/r?a=1 #frag\n\n###\nGET BASE/s # a note\n');
    expect(result.code).toBe(0);
    expect(result.received.map((r) => r.url)).toEqual(['/r?a=1', '/s']);
  });

  test('a // comment after the URL: exit 2 naming the line and column, nothing sent', async () => {
    const result = await run('slashes.http', 'GET BASE/r?a=1 // note\n');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/slashes\.http:1:\d+: a comment after the URL: \/\/ note\n/);
    expect(result.received).toEqual([]);
  });

  test("JetBrains' and kulala's run and import lines are refused naming the line, before anything is sent (they went out as a method RUN)", async () => {
    for (const line of ['run ./other.http', 'run #Login (@host=example.com)', 'import ./other.http']) {
      const result = await run('directive.http', `GET BASE/first\n\n###\n${line}\n`);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`directive\\.http:4:1: "${line.split(' ')[0]}" .* is not supported: it is not sent as a request`));
      expect(result.received).toEqual([]);
    }
  });

  test('a URL written whole that is not an http(s) URL stops the run before its first request, in every format', async () => {
    for (const [name, text] of [
      ['relative.http', 'GET BASE/first\n\n###\nGET ./q1.http\n'],
      ['scheme.http', 'GET BASE/first\n\n###\nGET mailto:x@example.com\n'],
      ['list.yaml', 'requests:\n  - url: BASE/first\n  - url: "#Req1"\n'],
      ['list.json', '{"requests": [{"url": "BASE/first"}, {"url": "ftp://example.com/x"}]}'],
    ] as const) {
      const result = await run(name, text);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`${name.replace('.', '\\.')}(:4|: request "request-2"): (not a valid URL|unsupported URL scheme)`));
      expect(result.received).toEqual([]);
    }
    // -n picks the requests the run sends: the others' URLs are theirs to mend.
    const other = await run('picked.http', 'GET BASE/first\n\n###\nGET ./q1.http\n', '-n', 'request-1');
    expect(other.code).toBe(0);
    expect(other.received.map((r) => r.url)).toEqual(['/first']);
    const picked = await run('picked.http', 'GET BASE/first\n\n###\nGET ./q1.http\n\n###\nGET BASE/third\n', '-n', 'request-3', '-n', 'request-2');
    expect(picked.code).toBe(2);
    expect(picked.received).toEqual([]);
    // A dry run sends nothing: it prints the request as written, as before.
    const dry = await run('dry.http', 'GET ./q1.http\n', '--dry-run');
    expect({ code: dry.code, stdout: dry.stdout }).toEqual({ code: 0, stdout: '### request-1\nGET ./q1.http\n\n' });
    // An httpyac request hook may set the URL before it goes out: checked then, not before.
    const hooked = await run('hooked.http', `{{@request\n  request.url = '${server.url}/hooked';\n}}\n\n###\nGET about:blank\n`);
    expect(hooked.code).toBe(0);
    expect(hooked.received.map((r) => r.url)).toEqual(['/hooked']);
    const tested = await runCli(['test', tmp.write('t.http', `GET ${server.url}/first\n\n###\nGET ./q1.http\n`)], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(tested.code).toBe(2);
    expect(tested.stdout + tested.stderr).toMatch(/t\.http:4: not a valid URL/);
    expect(server.received.filter((r) => r.url === '/first')).toEqual([]);
    // A URL from a variable is checked when it is resolved, as before; a written one that is fine is sent.
    const fine = await run('fine.http', '@base = BASE\n\nGET {{base}}/a\n\n###\nGET BASE/b\n');
    expect(fine.code).toBe(0);
    expect(fine.received.map((r) => r.url)).toEqual(['/a', '/b']);
  });

  test('a control character written in the URL is the file\'s error (exit 2), not a variable\'s (exit 3)', async () => {
    const written = await run('control.http', 'GET BASE/a\u0001b\n');
    expect(written.code).toBe(2);
    expect(written.stderr).toMatch(/control\.http:1: the URL of request "request-1" contains a control character \(U\+0001\)/);
    expect(written.stderr).not.toMatch(/from \{\{/);
    const fromValue = await run('control-value.http', 'GET BASE/a{{v}}\n', '-e', 'v=x\u0001y');
    expect(fromValue.code).toBe(3);
    expect(fromValue.stderr).toMatch(/from \{\{v\}\}/);
    expect([...written.received, ...fromValue.received]).toEqual([]);
  });

  test('a header line whose name is a template is refused naming the line, never sent as the body', async () => {
    const result = await run('templated-name.http', 'GET BASE/hn\nX-A: 1\n{{hn}}: v\n', '-e', 'hn=X-B');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/templated-name\.http:3:1: invalid header name "\{\{hn\}\}"/);
    expect(result.received).toEqual([]);
  });

  test('CONNECT is refused naming the line: it opens a tunnel, and its answer ended the run silently with exit 0', async () => {
    const result = await run('connect.http', 'CONNECT BASE/x\n');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/connect\.http:1: CONNECT .*: reqflow sends requests, and CONNECT opens a tunnel/);
    expect(result.received).toEqual([]);
  });

  test('HTTP/1.0 is refused naming the line: it would go out as HTTP/1.1', async () => {
    const result = await run('v10.http', 'GET BASE/r HTTP/1.0\n');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/v10\.http:1:\d+: HTTP\/1\.0 is not supported: reqflow speaks HTTP\/1\.1 and HTTP\/2/);
    expect(result.received).toEqual([]);
    const written = await run('v11.http', 'GET BASE/r HTTP/1.1\n');
    expect(written.received.map((r) => r.url)).toEqual(['/r']);
  });
});

describe('a written Content-Length', () => {
  test('that the body contradicts: exit 2 naming the line, nothing sent', async () => {
    const result = await run('length.http', 'POST BASE/d\nContent-Length: 3\n\nabcdef\n');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/length\.http:1: POST http:\/\/127\.0\.0\.1:\d+\/d: header "Content-Length" cannot be sent: it says 3 bytes, and the body is 6\n/);
    expect(result.received).toEqual([]);
  });

  test('on a request without a body, or not a number: refused too', async () => {
    const none = await run('none.http', 'GET BASE/d\nContent-Length: 5\n');
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/it says 5 bytes, and the body is 0/);
    const word = await run('word.http', 'POST BASE/d\nContent-Length: six\n\nabcdef\n');
    expect(word.code).toBe(2);
    expect(word.stderr).toMatch(/it is not a number of bytes/);
    expect([...none.received, ...word.received]).toEqual([]);
  });

  test('beside Transfer-Encoding: refused (two framings, a smuggling shape); Transfer-Encoding: chunked alone sends the body in chunks, no length', async () => {
    const both = await run('both.http', 'POST BASE/d\nTransfer-Encoding: chunked\nContent-Length: 3\n\nabc\n');
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/both\.http:1: POST http:\/\/127\.0\.0\.1:\d+\/d: Content-Length and Transfer-Encoding cannot both be sent/);
    expect(both.received).toEqual([]);
    const chunked = await run('chunked.http', 'POST BASE/d\nTransfer-Encoding: chunked\n\nabc\n');
    expect(chunked.code).toBe(0);
    expect(chunked.received.map((r) => [r.headers['transfer-encoding'], r.headers['content-length'], r.body.toString()])).toEqual([['chunked', undefined, 'abc']]);
    const gzip = await run('te-gzip.http', 'POST BASE/d\nTransfer-Encoding: gzip\n\nabc\n');
    expect(gzip.code).toBe(2);
    expect(gzip.stderr).toContain("a request's last transfer coding must be chunked");
  });

  test("Transfer-Encoding: gzip from a profile: exit 2 whose hint says what to do with a transfer coding, not a header's syntax; nothing sent", async () => {
    tmp.write('te-profile/.profiles.json', JSON.stringify({ profiles: [{ name: 'default', headers: { 'Transfer-Encoding': 'gzip' } }] }));
    const file = tmp.write('te-profile/r.http', `POST ${server.url}/d\n\nabc\n`);
    server.received.length = 0;
    const result = await runCli(['run', file], { cwd: join(tmp.dir, 'te-profile'), env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 2,
      stderr: `reqflow: r.http:1: POST ${server.url}/d: header "Transfer-Encoding" cannot be sent: a request's last transfer coding must be chunked (RFC 9112 §6.1)\nhint: remove it (reqflow frames the body itself) or end it with chunked ("gzip, chunked"); for a compressed body, send Content-Encoding: gzip\n`,
    });
    expect(server.received).toEqual([]);
  });

  test('a 303 after a chunked POST: the GET that follows carries no Transfer-Encoding (nor any body)', async () => {
    const redirecting = await startRecorder((req, res) => {
      if (req.url === '/post') res.writeHead(303, { location: '/done' }).end();
      else res.end('ok');
    });
    try {
      const file = tmp.write('redirect.http', `POST ${redirecting.url}/post\nTransfer-Encoding: chunked\n\nabc\n`);
      const result = await runCli(['run', file, '-L', '-o', 'raw'], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
      expect(result.code).toBe(0);
      expect(redirecting.received.map((r) => [r.method, r.url, r.headers['transfer-encoding'], r.body.length])).toEqual([
        ['POST', '/post', 'chunked', 3],
        ['GET', '/done', undefined, 0],
      ]);
    } finally {
      await redirecting.close();
    }
  });

  test('that matches: sent as written', async () => {
    const result = await run('right.http', 'POST BASE/d\nContent-Length: 6\n\nabcdef\n');
    expect(result.code).toBe(0);
    expect(result.received.map((r) => [r.headers['content-length'], r.body.toString()])).toEqual([['6', 'abcdef']]);
  });
});

describe('YAML and JSON request files', () => {
  test('a header in two spellings: every line of both is sent', async () => {
    const yaml = await run('two.yaml', 'url: BASE/y\nheaders:\n  X-L: [a, b]\n  x-l: c\n');
    const json = await run('two.json', JSON.stringify({ url: 'BASE/j', headers: { 'X-L': 'a', 'x-l': 'c' } }));
    expect([yaml.code, json.code]).toEqual([0, 0]);
    expect(yaml.received.map((r) => r.headers['x-l'])).toEqual(['a, b, c']);
    expect(json.received.map((r) => r.headers['x-l'])).toEqual(['a, c']);
  });

  test('a JSON key written twice in one object: exit 2 naming the line and column, nothing sent', async () => {
    const result = await run('twice.json', '{\n  "url": "BASE/first",\n  "url": "BASE/second"\n}\n');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/twice\.json:3:\d+: duplicate key "url" in one object \(only the last would be read\)\n/);
    expect(result.received).toEqual([]);
  });

  test.each([
    ['beside.json', JSON.stringify({ requests: [{ url: 'BASE/a' }], headrs: { 'X-A': '1' } }), 'headrs'],
    ['beside.yaml', 'requests:\n  - url: BASE/a\nheaders:\n  X-Global: "1"\n', 'headers'],
  ])('a field beside "requests" (%s) is refused, not ignored', async (name, text, field) => {
    const result = await run(name, text);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${name}: ${field}: unknown field beside "requests"\n`);
    expect(result.received).toEqual([]);
  });

  test('numbers of a YAML body too: past 2^53 (decimal, hex) they keep their digits', async () => {
    const result = await run('big.yaml', 'method: POST\nurl: BASE/bigy\nheaders:\n  X-N: 7\nbody:\n  id: 12345678901234567890\n  hex: 0x1fffffffffffffffff\n  n: 1.5\n  small: 42\n');
    expect(result.code).toBe(0);
    expect(result.received.map((r) => [r.headers['x-n'], r.body.toString()])).toEqual([['7', '{\n  "id": 12345678901234567890,\n  "hex": 590295810358705651711,\n  "n": 1.5,\n  "small": 42\n}']]);
  });

  test('numbers of a JSON body are sent as written, beyond what a double holds', async () => {
    const result = await run('big.json', '{"method": "POST", "url": "BASE/big", "body": {"id": 12345678901234567890, "huge": 1e400, "n": 1.5}}');
    expect(result.code).toBe(0);
    expect(result.received.map((r) => r.body.toString())).toEqual(['{\n  "id": 12345678901234567890,\n  "huge": 1e400,\n  "n": 1.5\n}']);
  });

  test('a YAML body: 1e400 and 1.10 go out as numbers as written (js-yaml reads 1e400 as a string, 1.10 as 1.1), as in a JSON file', async () => {
    const result = await run('floats.yaml', 'method: POST\nurl: BASE/floats\nbody:\n  e: 1e400\n  f: 1.5e300\n  v: 1.10\n  k: 1e3\n');
    expect(result.code).toBe(0);
    expect(result.received.map((r) => r.body.toString())).toEqual(['{\n  "e": 1e400,\n  "f": 1.5e300,\n  "v": 1.10,\n  "k": 1e3\n}']);
  });

  test.each([
    ['body', 'method: POST\nurl: BASE/inf\nbody:\n  a: [1, {g: .inf}]\n', 'body.a[1].g: Infinity'],
    ['GraphQL variables', 'url: BASE/graphql\nprotocol: graphql\nbody: "query Q($n: Float) { f(n: $n) }"\nvariables:\n  n: .nan\n', 'variables.n: NaN'],
  ])("YAML's .inf or .nan in the %s: exit 2 naming the field, nothing sent (JSON has no such number; it went out as null)", async (_where, text, named) => {
    const result = await run('inf.yaml', text);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${named} has no JSON form\n`);
    expect(result.received).toEqual([]);
  });

  test('a YAML date is the text written, not a timestamp (2024-01-01 went out as 2024-01-01T00:00:00.000Z); !!binary, which has no JSON form, is exit 2 naming its line', async () => {
    const dated = await run('dated.yaml', 'method: POST\nurl: BASE/dated\nbody:\n  d: 2024-01-01\n  t: 2024-01-01T10:00:00Z\n');
    expect(dated.code).toBe(0);
    expect(dated.received.map((r) => r.body.toString())).toEqual(['{\n  "d": "2024-01-01",\n  "t": "2024-01-01T10:00:00Z"\n}']);
    const binary = await run('binary.yaml', 'method: POST\nurl: BASE/binary\nbody:\n  b: !!binary aGVsbG8=\n');
    expect(binary.code).toBe(2);
    expect(binary.stderr).toMatch(/binary\.yaml:4:\d+: invalid YAML: unknown tag !<tag:yaml\.org,2002:binary>/);
    expect(binary.received).toEqual([]);
  });

  test('a header written as a number or true/false goes out as written (YAML and JSON), as in a .http file', async () => {
    const yaml = await run('typed.yaml', 'url: BASE/typed\nheaders:\n  X-Version: 1.10\n  X-Zip: 0755\n  X-Flag: True\n  X-List: [2.0, a]\n  X-Int: 7\n');
    const json = await run('typed.json', '{"url": "BASE/typed", "headers": {"X-Version": 1.10, "X-Big": 12345678901234567890, "X-List": [2.0, "a"], "X-Flag": true}}');
    expect([yaml.code, json.code]).toEqual([0, 0]);
    const picked = (r: { headers: Record<string, string | string[] | undefined> }) => ['x-version', 'x-zip', 'x-flag', 'x-list', 'x-int', 'x-big'].map((name) => r.headers[name]);
    expect(yaml.received.map(picked)).toEqual([['1.10', '0755', 'True', '2.0, a', '7', undefined]]);
    expect(json.received.map(picked)).toEqual([['1.10', undefined, 'true', '2.0, a', undefined, '12345678901234567890']]);
  });

  test('a typed header beside a tagged scalar (!!int "5") reads as before, not exit 70', async () => {
    const result = await run('tagged.yaml', 'url: BASE/tagged\nmethod: POST\nheaders: {X-Version: 1.10}\nbody: {n: !!int "5"}\n');
    expect(result.code).toBe(0);
    expect(result.received.map((r) => [r.headers['x-version'], r.body.toString()])).toEqual([['1.10', '{\n  "n": 5\n}']]);
  });

  test('a YAML header from a merged anchor keeps its text too', async () => {
    const result = await run('merged.yaml', 'common: &common\n  X-Version: 2.0\nrequests:\n  - url: BASE/merged\n    headers:\n      <<: *common\n      X-Own: 01\n');
    expect(result.code).toBe(0);
    expect(result.received.map((r) => [r.headers['x-version'], r.headers['x-own']])).toEqual([['2.0', '01']]);
  });
});

describe('a header value past ASCII', () => {
  // Node wrote `é` as one byte (Latin-1) on a request without a body and as two (UTF-8) beside a
  // string body: the same line of the file went out as two byte sequences, neither shown by -v.
  test('written in the file, with a body or without: exit 2 naming the line and the header, nothing sent', async () => {
    const result = await run('accent.http', 'GET BASE/get\nX-Name: café\n\n###\nPOST BASE/post\nX-Name: café\nContent-Type: text/plain\n\nbody\n\n###\nGET BASE/euro\nX-Price: 5 €\n');
    expect(result.code).toBe(2);
    expect(result.received).toEqual([]);
    const lines = result.stderr.split('\n').filter((line) => line.startsWith('reqflow: '));
    const name = basename(result.file);
    expect(lines).toEqual([
      `reqflow: ${name}:1: GET ${server.url}/get: header "X-Name" cannot be sent: its value holds a character past ASCII (U+00E9)`,
      `reqflow: ${name}:5: POST ${server.url}/post: header "X-Name" cannot be sent: its value holds a character past ASCII (U+00E9)`,
      `reqflow: ${name}:12: GET ${server.url}/euro: header "X-Price" cannot be sent: its value holds a character past ASCII (U+20AC)`,
    ]);
    expect(result.stderr).toContain("hint: header values are ASCII: percent-encode it (é as %C3%A9), or for a parameter use RFC 8187 (filename*=UTF-8''caf%C3%A9.txt)\n");
  });

  test('from a variable: exit 3 naming the variable; percent-encoded, it goes out as written', async () => {
    const result = await run('accent-var.http', 'POST BASE/var\nX-Name: {{name}}\n\nbody\n', '-e', 'name=José');
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`reqflow: ${basename(result.file)}:1: header X-Name of request "request-1" would contain a character a header cannot hold (U+00E9), from {{name}}\n`);
    expect(result.received).toEqual([]);
    const encoded = await run('accent-encoded.http', 'POST BASE/var\nX-Name: Jos%C3%A9\n\nbody\n');
    expect(encoded.code).toBe(0);
    expect(encoded.received.map((r) => r.headers['x-name'])).toEqual(['Jos%C3%A9']);
  });

  test("a cookie a server set with bytes past ASCII goes back as those bytes, with a body or without (beside a body they went out re-encoded as UTF-8)", async () => {
    const setter = await startRecorder((req, res) => {
      // Node writes a header's string one byte a character: these are the bytes on the wire.
      if (req.url === '/set') res.setHeader('Set-Cookie', ['utf8=caf\u00c3\u00a9; Path=/', 'latin1=caf\u00e9; Path=/']);
      res.end();
    });
    try {
      const file = tmp.write('jar-bytes.http', `GET ${setter.url}/set\n\n###\nGET ${setter.url}/get\n\n###\nPOST ${setter.url}/post\nContent-Type: text/plain\n\nbody\n`);
      const result = await runCli(['run', file, '-o', 'raw'], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'jar-state') } });
      expect(result.code).toBe(0);
      // The server read each byte as one character: back to bytes the same way.
      const cookieBytes = setter.received.map((r) => [r.url, Buffer.from(String(r.headers.cookie ?? ''), 'latin1').toString('hex')]);
      const expected = Buffer.concat([Buffer.from('utf8=caf'), Buffer.from([0xc3, 0xa9]), Buffer.from('; latin1=caf'), Buffer.from([0xe9])]).toString('hex');
      expect(cookieBytes).toEqual([['/set', ''], ['/get', expected], ['/post', expected]]);
      expect(setter.received.at(-1)?.body.toString()).toBe('body');
    } finally {
      await setter.close();
    }
  });
});
