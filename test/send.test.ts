/**
 * `reqflow send [METHOD] URL`: one request written on the command line, through the same loop
 * as a request file — the real CLI against a server that records what arrived.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCli, tempDir, type CliResult } from './helpers/cli.js';
import { parseRecords } from './helpers/records.js';
import { startRecorder, type Recorded, type Recorder } from './helpers/recorder.js';
import { sessionFileFor } from './helpers/session-file.js';

let server: Recorder;
const tmp = tempDir('reqflow-send-');
const stateDir = join(tmp.dir, 'state');
/** The project of these tests: its own folder, profiles file and sessions. */
const projectDir = join(tmp.dir, 'project');

beforeAll(async () => {
  server = await startRecorder((req, res) => {
    if (req.url === '/missing') {
      res.statusCode = 404;
      res.end('no such thing');
    } else if (req.url === '/login') {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ token: 'tok-from-login-123' }));
    } else res.end('ok');
  });
  mkdirSync(projectDir, { recursive: true });
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});
beforeEach(() => {
  server.received.length = 0;
  writeFileSync(join(projectDir, '.profiles.json'), JSON.stringify([{ name: 'default', variables: { baseUrl: server.url } }]));
});

function send(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return runCli(['send', ...args], { cwd: projectDir, env: { REQFLOW_STATE_DIR: stateDir, ...env } });
}

function last(): Recorded {
  const request = server.received.at(-1);
  if (!request) throw new Error('nothing was sent');
  return request;
}

describe('the request as written', () => {
  test('a URL alone is a GET; the response is the output, as with run', async () => {
    const result = await send([`${server.url}/users?page=2`, '-o', 'raw']);
    expect(result).toMatchObject({ code: 0, stdout: 'ok' });
    expect(last()).toMatchObject({ method: 'GET', url: '/users?page=2' });
    expect(last().headers['user-agent']).toMatch(/^reqflow\//);
  });

  test('a method, headers (a name twice is two lines), {{variables}} in the URL and headers', async () => {
    const result = await send(['delete', '{{baseUrl}}/items/{{id}}', '-H', 'X-One: 1', '-H', 'x-one: 2', '-H', 'X-Who: {{who}}', '-e', 'id=42', '-e', 'who=ada', '-o', 'raw']);
    expect(result.code).toBe(0);
    expect(last()).toMatchObject({ method: 'DELETE', url: '/items/42' });
    expect(last().headers['x-one']).toBe('1, 2');
    expect(last().headers['x-who']).toBe('ada');
  });

  test("curl's empty headers: 'Name;' sends it empty, 'Name:' sends none (and is refused for the headers reqflow always sends)", async () => {
    const result = await send(['{{baseUrl}}/h', '-H', 'X-Empty;', '-H', 'X-Gone:', '-o', 'raw']);
    expect(result.code).toBe(0);
    expect(last().headers['x-empty']).toBe('');
    expect(last().headers).not.toHaveProperty('x-gone');
    const refused = await send(['{{baseUrl}}/h', '-H', 'User-Agent:']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^reqflow: -H "User-Agent:" would remove User-Agent \(curl's meaning\), which reqflow always sends\n/);
    // 'Content-Type:' with a body flag: the flag's type is not added (curl sends none either).
    for (const body of [['-d', 'x=1'], ['--json', '{"a":1}']]) {
      expect((await send(['{{baseUrl}}/h', '-H', 'Content-Type:', ...body, '-o', 'raw'])).code).toBe(0);
      expect(last().headers).not.toHaveProperty('content-type');
    }
    // Node's keep-alive sends Connection itself: removing it is refused, never silently ignored.
    const connection = await send(['{{baseUrl}}/h', '-H', 'Connection:']);
    expect(connection.code).toBe(2);
    expect(connection.stderr).toMatch(/-H "Connection:" would remove Connection/);
  });

  test('-d: a POST of the text, form-encoded as with curl; several -d are joined with &', async () => {
    expect((await send([`${server.url}/form`, '-d', 'name={{who}}', '-d', 'lang=en', '-e', 'who=ada'])).code).toBe(0);
    expect(last().method).toBe('POST');
    expect(last().headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(last().body.toString()).toBe('name=ada&lang=en');
  });

  test('-d @file: the bytes of the file as they are (newlines and NUL kept), relative to the current folder', async () => {
    const bytes = Buffer.from([0x61, 0x0a, 0x00, 0xff, 0x0d, 0x0a, 0x7b, 0x7b, 0x78, 0x7d, 0x7d]); // "a\n\0\xff\r\n{{x}}"
    writeFileSync(join(projectDir, 'payload.bin'), bytes);
    expect((await send(['PUT', `${server.url}/blob`, '-d', '@payload.bin', '-H', 'Content-Type: application/octet-stream'])).code).toBe(0);
    expect(last().method).toBe('PUT');
    expect(last().headers['content-type']).toBe('application/octet-stream');
    expect(last().body.equals(bytes)).toBe(true);
  });

  test('--json: the JSON body with Content-Type and Accept: application/json; -H wins over them', async () => {
    expect((await send([`${server.url}/users`, '--json', '{"name": "{{who}}"}', '-e', 'who=ada'])).code).toBe(0);
    expect(last()).toMatchObject({ method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' } });
    expect(last().body.toString()).toBe('{"name": "ada"}');
    writeFileSync(join(projectDir, 'user.json'), '{"name": "Grace"}\n');
    expect((await send(['PATCH', `${server.url}/users/1`, '--json', '@user.json', '-H', 'Accept: application/vnd.api+json'])).code).toBe(0);
    expect(last()).toMatchObject({ method: 'PATCH', headers: { 'content-type': 'application/json', accept: 'application/vnd.api+json' } });
    expect(last().body.toString()).toBe('{"name": "Grace"}\n');
  });

  test('--form: multipart/form-data with text fields and a file part (its name and type)', async () => {
    const file = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x0d, 0x0a]);
    writeFileSync(join(projectDir, 'logo.png'), file);
    expect((await send([`${server.url}/upload`, '--form', 'title=Q{{n}} "report"', '--form', 'logo=@logo.png;type=image/png', '--form', 'raw=@logo.png', '-e', 'n=3'])).code).toBe(0);
    const type = last().headers['content-type'] ?? '';
    const boundary = /^multipart\/form-data; boundary=(\S+)$/.exec(type)?.[1];
    expect(boundary).toBeDefined();
    const expected = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nQ3 "report"\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="logo"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="raw"; filename="logo.png"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    expect(last().method).toBe('POST');
    expect(last().body.equals(expected)).toBe(true);
  });

  test('-u user:password: basic auth, the password never shown (-v, -o json, errors)', async () => {
    const result = await send([`${server.url}/admin`, '-u', 'alice:pä$$-s3cret:x', '-v']);
    expect(result.code).toBe(0);
    expect(last().headers.authorization).toBe(`Basic ${Buffer.from('alice:pä$$-s3cret:x', 'utf8').toString('base64')}`);
    expect(result.stderr).toMatch(/^Authorization: •••$/m);
    const json = await send([`${server.url}/admin`, '-u', 'alice:pä$$-s3cret:x', '-o', 'json']);
    for (const output of [result.stdout, result.stderr, json.stdout, json.stderr]) {
      expect(output).not.toContain('s3cret');
      expect(output).not.toContain(Buffer.from('alice:pä$$-s3cret:x', 'utf8').toString('base64'));
    }
  });

  test('-o json: one record, named like the one request of a file', async () => {
    const result = await send(['POST', `${server.url}/users`, '--json', '{}', '-o', 'json']);
    expect(result.code).toBe(0);
    const [record] = parseRecords(result.stdout);
    expect(record).toMatchObject({ type: 'response', name: 'request-1', method: 'POST', url: `${server.url}/users`, status: 200, body: 'ok' });
  });

  test('a filter works as with run', async () => {
    const result = await send([`${server.url}/login`, '--filter', 'token', '-o', 'raw']);
    expect(result).toMatchObject({ code: 0, stdout: 'tok-from-login-123\n' });
  });
});

describe('the project of the current folder: profile, auth, session', () => {
  test("the profile's variables, headers and auth apply (-p picks the profile)", async () => {
    writeFileSync(
      join(projectDir, '.profiles.json'),
      JSON.stringify([
        { name: 'default', variables: { baseUrl: server.url } },
        { name: 'staging', variables: { baseUrl: server.url, apiKey: 'k-staging-0042' }, headers: { 'X-Team': 'blue' }, auth: { type: 'apikey' } },
      ]),
    );
    expect((await send(['{{baseUrl}}/reports', '-p', 'staging'])).code).toBe(0);
    expect(last().url).toBe('/reports');
    expect(last().headers['x-team']).toBe('blue');
    expect(last().headers['x-api-key']).toBe('k-staging-0042');
    // --auth none turns the profile's method off, as # @auth none does.
    expect((await send(['{{baseUrl}}/health', '-p', 'staging', '--auth', 'none'])).code).toBe(0);
    expect(last().headers['x-api-key']).toBeUndefined();
  });

  test('--auth bearer takes the token of the session: one a login left, or one an earlier run kept', async () => {
    const session = sessionFileFor(stateDir, projectDir);
    mkdirSync(dirname(session), { recursive: true });
    writeFileSync(session, JSON.stringify({ version: 1, variables: { token: 'tok-seeded-777' }, data: {} }), { mode: 0o600 });
    expect((await send([`${server.url}/me`, '--auth', 'bearer'])).code).toBe(0);
    expect(last().headers.authorization).toBe('Bearer tok-seeded-777');
    // A login through send fills the same session, as a login request of a file does.
    expect((await send(['POST', `${server.url}/login`, '--json', '{"user": "ada"}'])).code).toBe(0);
    expect((await send([`${server.url}/me`, '--auth', 'bearer'])).code).toBe(0);
    expect(last().headers.authorization).toBe('Bearer tok-from-login-123');
  });

  test('an unknown auth method is exit 2 naming the known ones, and nothing is sent', async () => {
    const result = await send([`${server.url}/me`, '--auth', 'oauth']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no plugin provides auth method "oauth"/);
    expect(result.stderr).toMatch(/known methods: .*oauth2/);
    expect(server.received).toEqual([]);
  });
});

describe('exit codes and refusals', () => {
  test('a 404 is exit 1, with the body', async () => {
    const result = await send([`${server.url}/missing`, '-o', 'raw']);
    expect(result).toMatchObject({ code: 1, stdout: 'no such thing' });
  });

  test('a bad URL is exit 2, one line, nothing sent', async () => {
    for (const url of ['not a url', 'ftp://files.example.com/a', 'http://127.0.0.1:99999/x']) {
      const result = await send([url]);
      expect(result.code).toBe(2);
      expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
      expect(result.stderr).toMatch(/^reqflow: .*\(reqflow send takes an http:\/\/ or https:\/\/ URL\)\n$/);
    }
    expect(server.received).toEqual([]);
  });

  test('a server that is not there is exit 4', async () => {
    expect((await send(['http://127.0.0.1:1/x'])).code).toBe(4);
  });

  test('what could not be sent as written is refused (exit 2), and nothing is sent', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /^reqflow: missing URL\nhint: usage: reqflow send \[METHOD\] URL/],
      [['POST'], /missing URL after POST/],
      [['GET', server.url, 'extra'], /unexpected argument "extra"/],
      [['G@T', server.url], /invalid method "G@T"/],
      // httpie's items, or the method after the URL: named as what they are, not as a method.
      [[server.url, 'X-Token:abc'], /unexpected argument "X-Token:abc" after the URL\nhint: the method goes before the URL, headers and data go in curl's flags/],
      [[server.url, 'a=1'], /unexpected argument "a=1" after the URL/],
      [[server.url, '-H', 'Transfer-Encoding: chunked', '-H', 'Content-Length: 3', '-d', 'abc'], /Content-Length and Transfer-Encoding cannot both be sent/],
      [[server.url, '-H', 'X-Token abc'], /-H expects "Name: value", got "X-Token abc"/],
      [[server.url, '-H', 'X-A: 1\r\nX-Injected: 2'], /-H X-A: the value holds a line break/],
      [[server.url, '-d', 'a=1', '--json', '{}'], /-d and --json both give the body: a request has one/],
      [[server.url, '--json', '{}', '--json', '[]'], /--json is given twice/],
      [[server.url, '--form', 'a=1', '-H', 'Content-Type: text/plain'], /--form writes Content-Type itself/],
      [[server.url, '--form', 'novalue'], /--form expects NAME=VALUE or NAME=@FILE/],
      // curl's syntax that a text value would hide: refused, not sent as text.
      [[server.url, '--form', 'x=<t.txt'], /--form x=<t\.txt: curl's <FILE \(a file's text as the value\) is not taken by reqflow send/],
      [[server.url, '--form', 'y=a;type=text/html'], /--form y=a;type=text\/html: curl's ;type= on a text part is not taken by reqflow send/],
      [[server.url, '-d', '@-'], /reqflow send takes a body from text or a file, not from stdin/],
      [[server.url, '-u', 'alice'], /-u expects USER:PASSWORD/],
      [[server.url, '-u', 'alice:pw', '--auth', 'bearer'], /-u is basic auth, and --auth bearer asks for another method/],
      [[server.url, '-u', 'alice:pw', '-H', 'Authorization: Bearer x'], /-u and -H Authorization both give the credentials/],
      [[server.url, '-n', 'x'], /unknown flag '-n'/],
      [[server.url, '--lsit'], /unknown flag '--lsit'/],
      [[server.url, '-d', '@nowhere.bin'], /cannot read the body file nowhere\.bin \(<send>:1\): no such file/],
    ];
    for (const [args, message] of cases) {
      const result = await send(args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toMatch(message);
    }
    expect(server.received).toEqual([]);
  });

  test('reqflow URL and reqflow run URL say to use send; the hint, run as written, sends it', async () => {
    for (const args of [[`${server.url}/hint`], ['run', `${server.url}/hint`]]) {
      const result = await runCli(args, { cwd: projectDir, env: { REQFLOW_STATE_DIR: stateDir } });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`reqflow: reqflow runs request files, not URLs: ${server.url}/hint\nhint: to send one request: reqflow send ${server.url}/hint\n`);
    }
    const suggested = await runCli(['send', `${server.url}/hint`], { cwd: projectDir, env: { REQFLOW_STATE_DIR: stateDir } });
    expect(suggested.code).toBe(0);
    expect(last().url).toBe('/hint');
  });
});

describe('--dry-run', () => {
  test('prints the request as it would go out, secrets masked, and sends nothing', async () => {
    const result = await send(['POST', '{{baseUrl}}/users', '-u', 'alice:s3cret-pw', '--json', '{"name": "{{who}}"}', '-e', 'who=ada', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`### request-1\nPOST ${server.url}/users\nAuthorization: •••\nContent-Type: application/json\nAccept: application/json\n\n{"name": "ada"}\n\n`);
    expect(server.received).toEqual([]);
  });
});
