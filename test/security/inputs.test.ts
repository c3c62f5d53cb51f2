/**
 * Inputs that must be refused with one line (and nothing sent): bad -e names, a header value
 * that a variable would split with a line break (header injection, a token read with its
 * newline), a bad header in a profile, a time-out Node's timers cannot hold, a missing file, a
 * URL where a file was expected, a request file nested deeper than anything can write, a socket
 * where a request file was expected.
 */
import { sessionFileFor } from '../helpers/session-file.js';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer as createSocketServer, type Server as SocketServer } from 'node:net';
import { dirname, join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecorder, type Recorder } from '../helpers/recorder.js';

let recorder: Recorder;
let url = '';
const tmp = tempDir('reqflow-inputs-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  recorder = await startRecorder();
  url = recorder.url;
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

function oneLine(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at |Error:|node:internal/);
}

test('a header value split by a variable (CR/LF) is exit 3 naming the header and the variable; nothing is sent', async () => {
  const before = recorder.received.length;
  const file = tmp.write('inject.http', `GET ${url}/\nX-User: {{user}}\n`);
  const result = await runCli(['run', file, '-e', 'user=ada\r\nX-Admin: true'], { env });
  expect(result.code).toBe(3);
  expect(result.stderr).toMatch(/^reqflow: \S*inject\.http:1: header X-User of request "request-1" would contain a line break, from \{\{user\}\}$/m);
  oneLine(result.stderr);
  expect(recorder.received.length).toBe(before);
});

test('a session token with a line break (read from a response) is refused the same way', async () => {
  mkdirSync(dirname(sessionFileFor(join(tmp.dir, 'state'), tmp.dir)), { recursive: true });
  writeFileSync(sessionFileFor(join(tmp.dir, 'state'), tmp.dir), JSON.stringify({ version: 1, variables: { token: 'abc\ndef' }, data: {} }), { mode: 0o600 });
  const file = tmp.write('token.http', `GET ${url}/\nAuthorization: Bearer {{token}}\n`);
  const result = await runCli(['run', file], { env, cwd: tmp.dir });
  expect(result.code).toBe(3);
  expect(result.stderr).toContain('would contain a line break, from {{token}}');
  expect(result.stderr).not.toContain('abc');
});

test('-e with an invalid name, and time-outs beyond what Node can wait, are exit 2', async () => {
  const file = tmp.write('plain.http', `GET ${url}/\n`);
  const name = await runCli(['run', file, '-e', 'a b=1'], { env });
  expect([name.code, name.stderr.split('\n')[0]]).toEqual([2, 'reqflow: -e: invalid variable name "a b"']);
  const timeout = await runCli(['run', file, '--timeout', '99999999999'], { env });
  expect([timeout.code, timeout.stderr.split('\n')[0]]).toEqual([2, 'reqflow: --timeout must be at most 2147483647 ms (about 24 days), got 99999999999']);
  oneLine(name.stderr + timeout.stderr);
});

test('a bad header in a profile is exit 2 naming the field', async () => {
  const dir = join(tmp.dir, 'profile');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, '.profiles.json'), JSON.stringify([{ name: 'default', headers: { 'X-Bad': 'one\r\nX-Other: two' } }]));
  writeFileSync(join(dir, 'r.http'), `GET ${url}/\n`);
  const result = await runCli(['run', join(dir, 'r.http')], { env });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/profiles\[0\]\.headers\.X-Bad: expected one line of visible ASCII characters/);
  // Any character HTTP cannot carry (a DEL, one past ASCII), not only line breaks; templates are checked once resolved.
  for (const value of ['a\u007fb', '\u4e2d']) {
    writeFileSync(join(dir, '.profiles.json'), JSON.stringify([{ name: 'default', headers: { 'X-Bad': value, 'X-Ok': 'Bearer {{token}}' } }]));
    const bad = await runCli(['run', join(dir, 'r.http')], { env });
    expect([bad.code, bad.stderr.split('\n')[0]]).toEqual([2, `reqflow: ${join(dir, '.profiles.json')}: profiles[0].headers.X-Bad: expected one line of visible ASCII characters, spaces and tabs (no control characters, nothing past ASCII: percent-encode it)`]);
  }
});

test('a control character from a variable in a header is exit 3 naming the variable, never its value; nothing is sent', async () => {
  const before = recorder.received.length;
  const file = tmp.write('ctl.http', `GET ${url}/\nX-H: {{apiToken}}\n`);
  const result = await runCli(['run', file, '-e', 'apiToken=SEC\u0001RET'], { env });
  expect(result.code).toBe(3);
  expect(result.stderr.split('\n')[0]).toBe(`reqflow: ${file}:1: header X-H of request "request-1" would contain a character a header cannot hold (U+0001), from {{apiToken}}`);
  expect(result.stderr).not.toContain('SEC');
  oneLine(result.stderr);
  expect(recorder.received.length).toBe(before);
});

test('`reqflow missing.http` says the file does not exist; `reqflow run https://…` says how to send a URL', async () => {
  const missing = await runCli(['missing.http'], { cwd: tmp.dir, env });
  expect(missing.code).toBe(2);
  expect(missing.stderr).toMatch(/^reqflow: cannot read request file .*missing\.http: no such file$/m);
  const urlArg = await runCli(['run', 'https://api.example.com/users?api_key=k-123456'], { env });
  expect(urlArg.code).toBe(2);
  expect(urlArg.stderr).toMatch(/^reqflow: reqflow runs request files, not URLs: https:\/\/api\.example\.com\/users\?api_key=•••\nhint: to send one request: reqflow send /);
  expect(urlArg.stderr).not.toContain('k-123456');
});

test('a .json request file whose body is nested 100,000 levels deep is exit 2 naming the file; nothing is sent', async () => {
  const before = recorder.received.length;
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const file = tmp.write('deep.json', `{"requests":[{"method":"POST","url":"${url}/","body":${deep}}]}`);
  const result = await runCli(['run', file], { env });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(new RegExp(`^reqflow: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: nested more than 1000 levels deep$`, 'm'));
  oneLine(result.stderr);
  expect(recorder.received.length).toBe(before);
});

test('a socket as a request file — named, or found in a folder as x.http — is exit 2 saying it is a socket; nothing hangs', async () => {
  mkdirSync(join(tmp.dir, 'sockets'), { recursive: true });
  const path = join(tmp.dir, 'sockets', 'x.http');
  // A listener that never answers: a reader that waited on it would hang until the test times out.
  const listener: SocketServer = createSocketServer(() => undefined);
  await new Promise<void>((resolve) => listener.listen(path, resolve));
  try {
    const run = await runCli(['run', path], { env });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 2, stderr: `reqflow: cannot read request file ${path}: it is a socket, not a file\n` });
    const folder = await runCli(['test', join(tmp.dir, 'sockets')], { env });
    expect(folder.code).toBe(2);
    expect(folder.stdout + folder.stderr).toMatch(/^ {2,}cannot read request file .*x\.http: it is a socket, not a file$/m);
    oneLine(folder.stderr);
  } finally {
    await new Promise((resolve) => listener.close(resolve));
  }
});
