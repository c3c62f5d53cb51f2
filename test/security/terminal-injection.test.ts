/**
 * Terminal injection: everything a hostile server controls that reaches a terminal — reason
 * phrase, header names and values (-v), text bodies, SSE event names, ids and data, GraphQL
 * error messages, warnings and error lines — shows escape sequences as visible characters,
 * never as bytes the terminal would execute (CSI, OSC 52 clipboard, OSC 0 window title, DCS).
 * `-o raw` stays byte-exact.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { createServer as createRawServer, type AddressInfo, type Server as RawServer } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, runOnTerminal, tempDir } from '../helpers/cli.js';
import { needs } from '../helpers/system-programs.js';
import { stripAnsi } from '../../src/tui/response-capture.js';
import { headersText } from '../../src/tui/views/format.js';

const ESC = '\u001b';
/** Set the clipboard, retitle the window, clear the screen, a DCS string, a C1 CSI, a bidi override. */
const HOSTILE = `${ESC}]52;c;cHduZWQ=\u0007${ESC}]0;pwned\u0007${ESC}[2J${ESC}P1$r${ESC}\\\u009b31m\u202e`;

/** Valid JSON carrying C1 controls and bidi controls, raw and as escapes, in values and keys. */
const C1_DOC = { a: 'x\u202eevil\u2066 \u009b31m\u007f', 'k\u009bx\u202d': 1, escaped: ['\u0085', '\u2069'] };
const C1_JSON = JSON.stringify(C1_DOC).replace('\u0085', '\\u0085');
/** Past the small-body path: the streaming printer writes it. */
const C1_JSON_LARGE = JSON.stringify({ pad: 'p'.repeat(100_000), ...C1_DOC });

/** Bytes 0x80–0xFF in header values (obs-text): a Latin-1 é, UTF-8's two bytes of é, C1 controls. */
const LATIN_HEADERS = 'X-Name: caf\u00e9\r\nX-Utf8: caf\u00c3\u00a9\r\nX-C1: a\u0085b\u009b2Jc\r\n';
/** Each byte one character, as Node reads a head: the same text in every output. */
const LATIN_READ = { 'x-name': 'caf\u00e9', 'x-utf8': 'caf\u00c3\u00a9', 'x-c1': 'a\u0085b\u009b2Jc' };

let server: Server;
let url = '';
/** Node's own server refuses to send a reason phrase with control characters: a raw one does. */
let raw: RawServer;
let rawUrl = '';
const tmp = tempDir('reqflow-injection-');

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/text') return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`before ${HOSTILE} after\r\nline two\n`);
    if (path === '/json-ish') return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`{"a": "${ESC}]52;c;eA==\u0007"}`);
    if (path === '/events') {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      return void res.end(`event: tick${ESC}[2J\nid: 1${ESC}]0;x\u0007\ndata: plain ${ESC}]52;c;eA==\u0007 text\n\n`);
    }
    if (path === '/events-binary') {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      return void res.end(`data: first text\n\ndata: a\u0000b ${ESC}[2J\n\ndata: never shown\n\n`);
    }
    if (path === '/binary') return void res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 0x1b, 0x5b, 0x32, 0x4a, 0xff]));
    // Binary under a text label: the bytes decide, not the label.
    if (path === '/binary-as-text') return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end(Buffer.from([0x61, 0, 1, 2, 0x1b, 0x5b, 0x32, 0x4a]));
    if (path === '/json-broken') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(`{"a": "${HOSTILE}"}`);
    if (path === '/json-late') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(`[${'"xxxxxxxxxxxxxx",'.repeat(150_000)}oops ${HOSTILE}\r\nline two\n`);
    if (path === '/json-c1') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(C1_JSON);
    if (path === '/json-c1-large') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(C1_JSON_LARGE);
    if (path === '/graphql') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ data: null, errors: [{ message: `denied ${ESC}]52;c;eA==\u0007` }] }));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  raw = createRawServer((socket) => {
    socket.once('data', (data: Buffer) => {
      // Node's parser refuses C0 controls in header values, but not 8-bit bytes: 0x9B is a C1 CSI.
      const headers = data.toString().startsWith('GET /headers') ? 'X-Evil: a\u009b2Jb\r\n' : data.toString().startsWith('GET /latin') ? LATIN_HEADERS : '';
      socket.end(Buffer.from(`HTTP/1.1 200 OK ${ESC}]0;title\u0007\r\n${headers}Content-Type: text/plain\r\nContent-Length: 4\r\nConnection: close\r\n\r\nfine`, 'latin1'));
    });
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => raw.close(resolve));
  tmp.cleanup();
});

/** No byte a terminal would act on, beyond our own colour codes (none here: NO_COLOR). */
function expectInert(text: string): void {
  expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
}

const run = async (file: string, text: string, args: string[] = []) => runCli(['run', tmp.write(file, text), ...args], { env: { REQFLOW_STATE_DIR: `${tmp.dir}/state` } });

test('a reason phrase and header names and values with escape sequences', async () => {
  const status = await run('status.http', `GET ${rawUrl}/status\n`, ['-v']);
  expectInert(status.stderr);
  expect(status.stderr).toContain('200 OK ␛]0;title␇');
  const headers = await run('headers.http', `GET ${rawUrl}/headers\n`, ['-v']);
  expectInert(headers.stderr);
  expect(headers.stderr).toContain('x-evil: a<U+009B>2Jb');
});

test('header values with bytes past ASCII read as one character a byte (Latin-1), alike in -v, -o json, the history and the UI\'s headers; C1 controls among them marked, never raw', async () => {
  const shownLines = ['x-name: café', 'x-utf8: cafÃ©', 'x-c1: a<U+0085>b<U+009B>2Jc'];
  const verbose = await run('latin.http', `GET ${rawUrl}/latin\n`, ['-v']);
  expect(verbose.code).toBe(0);
  expectInert(verbose.stderr);
  for (const line of shownLines) expect(verbose.stderr).toContain(`${line}\n`);
  const json = await run('latin.http', `GET ${rawUrl}/latin\n`, ['-o', 'json']);
  expectInert(json.stdout);
  const headers = JSON.parse(json.stdout).headers as Record<string, string>;
  expect(headers).toMatchObject(LATIN_READ);
  // The run's project is the current folder's, as run() runs it.
  const history = (args: string[]) => runCli(['history', ...args], { env: { REQFLOW_STATE_DIR: `${tmp.dir}/state` } });
  const id = JSON.parse((await history(['-n', '1', '--json'])).stdout).id as string;
  const shown = await history(['show', id]);
  expectInert(shown.stdout);
  for (const line of shownLines) expect(shown.stdout).toContain(`${line}\n`);
  const kept = await history(['show', id, '--json']);
  expectInert(kept.stdout);
  expect(JSON.parse(kept.stdout).response.headers).toMatchObject(LATIN_READ);
  const pane = stripAnsi(headersText({ status: 200, statusText: 'OK', httpVersion: '1.1', durationMs: 1, size: 5, headers })).split('\n');
  expect(pane).toEqual(expect.arrayContaining(shownLines));
});

test('a text body in pretty output: OSC 52, OSC 0, CSI, DCS, C1 and bidi overrides made visible; CRLF lines kept', async () => {
  const result = await run('text.http', `GET ${url}/text\n`);
  expectInert(result.stdout);
  expect(result.stdout).toBe('before ␛]52;c;cHduZWQ=␇␛]0;pwned␇␛[2J␛P1$r␛\\<U+009B>31m<U+202E> after\nline two\n');
  const jsonIsh = await run('json-ish.http', `GET ${url}/json-ish\n`);
  expectInert(jsonIsh.stdout);
});

test('a body labelled JSON that is not JSON is shown as text made visible, as a text body is', async () => {
  const broken = await run('json-broken.http', `GET ${url}/json-broken\n`);
  expect(broken.stderr).toContain('says JSON but the body is not valid JSON');
  expectInert(broken.stdout);
  expect(broken.stdout).toBe('{"a": "␛]52;c;cHduZWQ=␇␛]0;pwned␇␛[2J␛P1$r␛\\<U+009B>31m<U+202E>"}\n');
});

test('a body valid JSON for its first MiBs, then not: the rest is made visible too', async () => {
  const late = await run('json-late.http', `GET ${url}/json-late\n`);
  expect(late.stderr).toContain('the rest of it is shown as text');
  expectInert(late.stdout);
  expect(late.stdout).toMatch(/oops ␛\]52;c;cHduZWQ=␇␛\]0;pwned␇␛\[2J␛P1\$r␛\\<U\+009B>31m<U\+202E>\nline two\n$/);
});

test('C1 and bidi controls inside JSON strings (values and keys, raw or escaped) are written as \\u escapes: pretty, large, filtered and -o json stay valid JSON', async () => {
  for (const path of ['json-c1', 'json-c1-large']) {
    const pretty = await run(`${path}.http`, `GET ${url}/${path}\n`);
    expectInert(pretty.stdout);
    expect(pretty.stdout).toContain('"x\\u202eevil\\u2066 \\u009b31m\\u007f"');
    expect(pretty.stdout).toContain('"k\\u009bx\\u202d": 1');
    expect(JSON.parse(pretty.stdout)).toMatchObject(C1_DOC);
    const json = await run(`${path}.http`, `GET ${url}/${path}\n`, ['-o', 'json']);
    expectInert(json.stdout);
    expect(JSON.parse(json.stdout).body).toMatchObject(C1_DOC);
  }
  const filtered = await run('json-c1-filter.http', `GET ${url}/json-c1\n`, ['--filter', '[a, escaped]']);
  expectInert(filtered.stdout);
  expect(JSON.parse(filtered.stdout)).toEqual([C1_DOC.a, C1_DOC.escaped]);
  const raw = await run('json-c1-raw.http', `GET ${url}/json-c1\n`, ['-o', 'raw']);
  expect(raw.stdout).toBe(C1_JSON);
});

test('-o raw with a filter whose result is an array or object writes C1 and bidi controls as \\u escapes, as pretty does; a string result stays as it is (jq -r)', async () => {
  const array = await run('json-c1-raw-filter.http', `GET ${url}/json-c1\n`, ['-o', 'raw', '--filter', '[a, escaped]']);
  expectInert(array.stdout);
  expect(array.stdout).toContain('"x\\u202eevil\\u2066 \\u009b31m\\u007f"');
  expect(JSON.parse(array.stdout)).toEqual([C1_DOC.a, C1_DOC.escaped]);
  const object = await run('json-c1-raw-filter.http', `GET ${url}/json-c1\n`, ['-o', 'raw', '--filter', '@']);
  expectInert(object.stdout);
  expect(JSON.parse(object.stdout)).toEqual(C1_DOC);
  const string = await run('json-c1-raw-filter.http', `GET ${url}/json-c1\n`, ['-o', 'raw', '--filter', 'a']);
  expect(string.stdout).toBe(`${C1_DOC.a}\n`);
});

test('-v shows a URL\'s C1 and bidi controls made visible, as --dry-run and errors do', async () => {
  const result = await runCli(['send', `${url}/\u009bx\u202ey`, '-v'], { env: { REQFLOW_STATE_DIR: `${tmp.dir}/state` } });
  expect(result.stderr).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/<U\+009B>x<U\+202E>y$/m);
  expect(result.stderr).not.toMatch(/[\u0080-\u009f\u202a-\u202e]/);
});

test('a warning naming a path whose folder holds escape sequences shows them made visible (run and test alike)', async () => {
  const folder = `f${ESC}]0;pwned\u0007${ESC}[2J\u009b31m\u202ex`;
  mkdirSync(join(tmp.dir, folder));
  writeFileSync(join(tmp.dir, folder, 'w.http'), `# @frobnicate\nGET ${url}/text\n`);
  for (const command of ['run', 'test']) {
    const result = await runCli([command, join(tmp.dir, folder, 'w.http'), '--dry-run'], { env: { REQFLOW_STATE_DIR: `${tmp.dir}/state` }, cwd: tmp.dir });
    expect(result.stderr).toContain('unknown annotation "@frobnicate"');
    expect(result.stderr).toContain('f␛]0;pwned');
    expect(result.stderr).not.toMatch(/[\u0007\u001b\u0080-\u009f\u202a-\u202e]/);
  }
});

test('-o raw stays byte-exact', async () => {
  const result = await run('raw.http', `GET ${url}/text\n`, ['-o', 'raw']);
  expect(result.stdout).toBe(`before ${HOSTILE} after\r\nline two\n`);
});

test('SSE event names, ids and text data', async () => {
  const result = await run('events.http', `# @streaming true\nGET ${url}/events\n`);
  expectInert(result.stdout + result.stderr);
  expect(result.stderr).toContain('event: tick␛[2J');
  expect(result.stdout).toContain('plain ␛]52;c;eA==␇ text');
});

test('GraphQL error messages', async () => {
  const result = await run('gql.http', `# @protocol graphql\nPOST ${url}/graphql\n\n{ secret }\n`);
  expect(result.code).toBe(1);
  expectInert(result.stdout + result.stderr);
  expect(result.stderr + result.stdout).toContain('denied ␛]52;c;eA==␇');
});

/** Runs the CLI with stdout on a pseudo-terminal, as a user at a terminal does. */
const onTerminal = (args: string[]): Promise<string> => runOnTerminal(args, { env: { REQFLOW_STATE_DIR: `${tmp.dir}/state` } });

needs(['script'], 'the run on a terminal').test('-o raw of a binary body to a terminal is refused unless --force; redirected, it is written as is', async () => {
  const file = tmp.write('binary.http', `GET ${url}/binary\n`);
  const refused = await onTerminal(['run', file, '-o', 'raw']);
  expect(refused).toMatch(/reqflow: the body of "request-1" is binary \(8 bytes\): reqflow does not write it to the terminal/);
  expect(refused).toContain('exit=2');
  expect(refused).not.toContain(`${ESC}[2J`);
  const labelled = await onTerminal(['run', tmp.write('binary-as-text.http', `GET ${url}/binary-as-text\n`), '-o', 'raw']);
  expect(labelled).toMatch(/reqflow: the body of "request-1" is binary \(8 bytes\)/);
  expect(labelled).toContain('exit=2');
  expect(labelled).not.toContain(`${ESC}[2J`);
  const forced = await onTerminal(['run', file, '-o', 'raw', '--force']);
  expect(forced).toContain('exit=0');
  const piped = await runCli(['run', file, '-o', 'raw'], { env: { REQFLOW_STATE_DIR: `${tmp.dir}/state` } });
  expect(piped.code).toBe(0);
  expect(Buffer.from(piped.stdout, 'latin1').length).toBeGreaterThan(0);
});

needs(['script'], 'the run on a terminal').test('-o raw of a stream whose event data is binary is refused on a terminal as a body is, the events before it written; --force writes it', async () => {
  const file = tmp.write('events-binary.http', `# @streaming true\nGET ${url}/events-binary\n`);
  const refused = await onTerminal(['run', file, '-o', 'raw']);
  expect(refused).toContain('first text');
  expect(refused).toMatch(/reqflow: the data of event 2 of "request-1" is binary \(8 bytes\): reqflow does not write it to the terminal/);
  expect(refused).toContain('exit=2');
  expect(refused).not.toContain(`${ESC}[2J`);
  expect(refused).not.toContain('never shown');
  const forced = await onTerminal(['run', file, '-o', 'raw', '--force']);
  expect(forced).toContain(`a\u0000b ${ESC}[2J`);
  expect(forced).toContain('exit=0');
});
