import { parseRecords } from './helpers/records.js';
import { sessionFileFor } from './helpers/session-file.js';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { startDemoApi, type DemoApi } from './servers/demo-api.js';
import { ROOT, runCli, tempDir } from './helpers/cli.js';

let api: DemoApi;
const tmp = tempDir();
const state = join(tmp.dir, 'state');
const env = () => ({ REQFLOW_STATE_DIR: state });

const file = tmp.write(
  'api.http',
  `### health
GET {{baseUrl}}/health

### users
# @filter users[0].name
GET {{baseUrl}}/users

### text
GET {{baseUrl}}/text

### missing
GET {{baseUrl}}/users/99
`,
);

beforeAll(async () => {
  api = await startDemoApi();
});
afterAll(async () => {
  await api.close();
  tmp.cleanup();
});

function noStack(stderr: string): void {
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toMatch(/Error:/);
}

describe('reqflow run', () => {
  test('runs every request in order; piped stdout carries only the bodies', async () => {
    const r = await runCli(['run', file, '-e', `baseUrl=${api.url}`], { env: env() });
    expect(r.code).toBe(1); // the last request is a 404
    expect(r.stdout).toBe('{\n  "status": "ok"\n}\n"Ada Lovelace"\nhello from the demo API\n{\n  "error": "no user 99"\n}\n');
    expect(r.stderr.split('\n').filter(Boolean).map((l) => l.replace(/\d+ ms$/, 'N ms'))).toEqual([
      'HTTP/1.1 200 OK  N ms',
      'HTTP/1.1 200 OK  N ms',
      'HTTP/1.1 200 OK  N ms',
      'HTTP/1.1 404 Not Found  N ms',
    ]);
  });

  test('`reqflow FILE` and `reqflow -e x=y FILE` do exactly what `reqflow run` does', async () => {
    const viaRun = await runCli(['run', file, '-n', 'users', '-e', `baseUrl=${api.url}`], { env: env() });
    const bare = await runCli([file, '-n', 'users', '-e', `baseUrl=${api.url}`], { env: env() });
    const flagsFirst = await runCli(['-e', `baseUrl=${api.url}`, '-n', 'users', file], { env: env() });
    for (const r of [viaRun, bare, flagsFirst]) {
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('"Ada Lovelace"\n');
    }
  });

  test('-n picks requests (repeatable); an unknown name is exit 2 listing the names', async () => {
    const r = await runCli(['run', file, '-n', 'text', '-n', 'health', '-e', `baseUrl=${api.url}`], { env: env() });
    expect([r.code, r.stdout]).toEqual([0, '{\n  "status": "ok"\n}\nhello from the demo API\n']);
    const bad = await runCli(['run', file, '-n', 'nope'], { env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('reqflow: no request named "nope"\nhint: requests in this file: health, users, text, missing\n');
  });

  test('--list prints name, method and URL without sending', async () => {
    const r = await runCli(['run', file, '--list'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('health\tGET\t{{baseUrl}}/health');
  });

  test('-o json prints one object per request with the documented fields', async () => {
    const r = await runCli(['run', file, '-o', 'json', '-n', 'health', '-n', 'missing', '-e', `baseUrl=${api.url}`], { env: env() });
    expect(r.code).toBe(1);
    const records = parseRecords(r.stdout);
    expect(records).toHaveLength(2);
    expect(Object.keys(records[0] ?? {})).toEqual(['type', 'name', 'method', 'url', 'status', 'statusText', 'httpVersion', 'headers', 'body', 'durationMs', 'size', 'request']);
    expect(records[0]).toMatchObject({ type: 'response', name: 'health', method: 'GET', url: `${api.url}/health`, status: 200, statusText: 'OK', httpVersion: '1.1', body: { status: 'ok' }, size: 15 });
    expect(records[1]).toMatchObject({ type: 'response', name: 'missing', status: 404, body: { error: 'no user 99' } });
    expect(typeof records[0]?.durationMs).toBe('number');
  });

  test('-o raw writes the body bytes unchanged; with a filter, strings unquoted', async () => {
    const raw = await runCli(['run', file, '-o', 'raw', '-n', 'health', '-e', `baseUrl=${api.url}`], { env: env() });
    expect([raw.code, raw.stdout, raw.stderr]).toEqual([0, '{"status":"ok"}', '']);
    const filtered = await runCli(['run', file, '-o', 'raw', '-n', 'users', '-e', `baseUrl=${api.url}`], { env: env() });
    expect(filtered.stdout).toBe('Ada Lovelace\n');
    const override = await runCli(['run', file, '-o', 'raw', '-n', 'users', '--filter', 'users[?id > `1`].id', '-e', `baseUrl=${api.url}`], { env: env() });
    expect(override.stdout).toBe('[\n  2,\n  3\n]\n');
  });

  test('an invalid JMESPath fails with exit 2 before anything is sent', async () => {
    const r = await runCli(['run', file, '--filter', 'users[0', '-e', `baseUrl=${api.url}`], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^reqflow: invalid JMESPath filter "users\[0" \(--filter\): .+\nhint: /);
    noStack(r.stderr);
  });

  test('a header written in the request wins over the profile header, case-insensitively; -v masks secrets', async () => {
    const dir = tempDir();
    try {
      dir.write('.profiles.json', JSON.stringify([{ name: 'default', variables: { baseUrl: api.url, apiToken: 's3cr3t-token-value' }, headers: { 'X-Team': 'profile', 'X-Env': 'dev', Authorization: 'Bearer {{apiToken}}' } }]));
      const path = dir.write('echo.http', 'GET {{baseUrl}}/echo\nx-team: request\n');
      const r = await runCli(['run', path, '-v', '-o', 'json'], { env: env() });
      expect(r.code).toBe(0);
      const record = JSON.parse(r.stdout);
      expect(record.body.headers).toMatchObject({ 'x-team': 'request', 'x-env': 'dev', authorization: 'Bearer s3cr3t-token-value' });
      expect(record.request.headers).toEqual({ 'X-Env': 'dev', Authorization: '•••', 'x-team': 'request' });
      const pretty = await runCli(['run', path, '-v'], { env: env() });
      expect(pretty.stderr).toMatch(/^Authorization: •••$/m);
      expect(pretty.stderr).not.toContain('s3cr3t-token-value');
    } finally {
      dir.cleanup();
    }
  });

  test('token auto-extraction links a login request to the next one; --no-extract turns it off', async () => {
    const dir = tempDir();
    try {
      const path = dir.write('login.http', `### login\nPOST {{baseUrl}}/login\nContent-Type: application/json\n\n{"username": "a", "password": "secret"}\n\n### me\nGET {{baseUrl}}/me\nAuthorization: Bearer {{token}}\n`);
      const own = { REQFLOW_STATE_DIR: join(dir.dir, 'state') };
      const off = await runCli(['run', path, '--no-extract', '-e', `baseUrl=${api.url}`], { env: own, cwd: dir.dir });
      expect(off.code).toBe(3);
      expect(off.stderr).toMatch(/reqflow: \S+\.http:\d+: unknown variable "token" in request "me"/);
      const on = await runCli(['run', path, '-e', `baseUrl=${api.url}`], { env: own, cwd: dir.dir });
      expect(on.code).toBe(0);
      expect(on.stdout).toContain('"user": "alice"');
      const sessionFile = sessionFileFor(join(dir.dir, 'state'), dir.dir);
      expect(statSync(sessionFile).mode & 0o777).toBe(0o600);
      const token = JSON.parse(readFileSync(sessionFile, 'utf8')).variables.token as string;
      expect(api.tokens.has(token)).toBe(true);
      // A later run of the same profile reuses the session.
      const again = await runCli(['run', path, '-n', 'me', '-e', `baseUrl=${api.url}`], { env: own, cwd: dir.dir });
      expect(again.code).toBe(0);
    } finally {
      dir.cleanup();
    }
  });

  test('an unknown variable is exit 3 and nothing with {{...}} is sent', async () => {
    const r = await runCli(['run', file, '-n', 'health'], { env: env(), cwd: tmp.dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^reqflow: \S*api\.http:2: unknown variable "baseUrl" in request "health"\nhint: set it with -e baseUrl=value/);
  });

  test('an interactive variable without a terminal is exit 3 with a hint to use -e', async () => {
    const dir = tempDir();
    try {
      dir.write('.profiles.json', JSON.stringify([{ name: 'default', variables: { baseUrl: api.url, password: { value: '', interactive: true } } }]));
      const path = dir.write('p.http', 'POST {{baseUrl}}/echo\n\n{{password}}\n');
      const r = await runCli(['run', path], { env: env() });
      expect(r.code).toBe(3);
      expect(r.stderr).toBe('reqflow: variable "password" is interactive but stdin is not a terminal\nhint: pass it with -e password=value\n');
    } finally {
      dir.cleanup();
    }
  });

  test('network failures are exit 4 with one clear line: refused and time-out', async () => {
    const port = await new Promise<number>((resolve) => {
      const server: Server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => resolve(free));
      });
    });
    const refused = await runCli(['run', file, '-n', 'health', '-e', `baseUrl=http://127.0.0.1:${port}`], { env: env() });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toBe(`reqflow: connection refused by 127.0.0.1:${port}\nhint: is the server running and listening on that port?\n`);
    // The server would answer after 60 s, past runCli's kill at 20 s: a run that waited for the
    // answer instead of ending at its --timeout is killed (signal, no exit code) — no clock needed.
    const slow = tmp.write('slow.http', 'GET {{baseUrl}}/slow?ms=60000\n');
    const timedOut = await runCli(['run', slow, '--timeout', '300', '-e', `baseUrl=${api.url}`], { env: env() });
    expect([timedOut.code, timedOut.signal]).toEqual([4, null]);
    expect(timedOut.stderr).toMatch(/^reqflow: GET http:\/\/127\.0\.0\.1:\d+\/slow timed out after 300 ms\nhint: raise it with --timeout MS \(or # @timeout in the request\)\n$/);
  });

  test('usage and file errors are exit 2 with one line and no stack trace', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['run', join(tmp.dir, 'nope.http')], /^reqflow: cannot read request file .*nope\.http: no such file\n$/],
      [['run', tmp.write('bad.http', '### a\nGET http://x\nbroken header\n')], /^reqflow: .*bad\.http:3:1: header line has no "Name: value" form: broken header\nhint: /],
      [['run', file, '--bogus'], /^reqflow: unknown flag '--bogus'\nhint: see reqflow run --help\n$/],
      [['run', file, '-o', 'xml'], /^reqflow: --output must be one of pretty, json, raw, got "xml"\n$/],
      [['run', file, '-p', 'nope', '--profiles', tmp.write('p.json', '[{"name": "a"}]')], /^reqflow: unknown profile "nope" in .*p\.json\nhint: available profiles: a\n$/],
      [['run', file, '--profiles', tmp.write('q.json', '[{"name": 1}]')], /^reqflow: .*q\.json: profiles\[0\]\.name: expected a non-empty string\n$/],
      [['run', tmp.write('u.http', 'GET ftp://example.com/file\n')], /^reqflow: \S*u\.http:1: unsupported URL scheme "ftp" in ftp:\/\/example\.com\/file\nhint: /],
    ];
    for (const [args, expected] of cases) {
      const r = await runCli(args, { env: env() });
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toMatch(expected);
      noStack(r.stderr);
    }
  });

  test('--version, --help and run --help with examples', async () => {
    const version = await runCli(['--version']);
    expect(version.stdout).toMatch(/^reqflow\/\d+\.\d+\.\d+ linux-x64 node-v20/);
    const help = await runCli(['run', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('-e, --variable=NAME=VALUE...');
    expect(help.stdout).toContain('EXAMPLES');
    const top = await runCli(['--help']);
    expect(top.stdout).toMatch(/run\s+Send the requests of a request file/);
  });

  test('a plain GET loads neither oclif nor graphql, openid-client, neo-blessed or ws', async () => {
    const log = join(tmp.dir, 'imports.log');
    const r = await runCli(['run', file, '-n', 'health', '-e', `baseUrl=${api.url}`], {
      env: { ...env(), REQFLOW_IMPORT_LOG: log, NODE_OPTIONS: `--import=${join(ROOT, 'test', 'fixtures', 'log-imports.mjs')}` },
    });
    expect(r.code).toBe(0);
    const loaded = readFileSync(log, 'utf8');
    // The hook saw the run (the entry point; the fast-path bundle itself is CommonJS, which ESM
    // hooks do not see — packages are always loaded with import(), which they do see).
    expect(loaded).toContain('/bin/run.cjs');
    expect(r.stdout).toBe('{\n  "status": "ok"\n}\n');
    for (const heavy of ['@oclif/core', '/graphql/', 'openid-client', 'neo-blessed', '/ws/', 'js-yaml', 'jmespath']) expect(loaded).not.toContain(heavy);
  });
});

describe('reqflow without a command, and what oclif refuses', () => {
  /** The TUI's own answer without a terminal: proof that the UI, not "command not found", took the arguments. */
  const NO_TERMINAL = 'reqflow: the terminal UI needs a terminal (stdin and stdout are not both terminals)\nhint: to send requests from a script or a pipe, use: reqflow run FILE\n';

  test('flags with no command, and a folder, open the UI (as `reqflow` alone does)', async () => {
    const dir = tempDir();
    try {
      dir.write('api/a.http', 'GET http://127.0.0.1:1/\n');
      const cases = [[], ['--env', 'dev'], ['-p', 'other'], ['-e', 'baseUrl=http://127.0.0.1:1'], ['api'], [join(dir.dir, 'api')], ['api', '-p', 'other']];
      for (const args of cases) {
        const r = await runCli(args, { env: env(), cwd: dir.dir });
        expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 2, stderr: NO_TERMINAL });
      }
    } finally {
      dir.cleanup();
    }
  });

  test('a folder named like a command does not hide the command', async () => {
    const dir = tempDir();
    try {
      dir.write('test/a.http', 'GET http://127.0.0.1:1/\n');
      const r = await runCli(['test', '--bogus'], { env: env(), cwd: dir.dir });
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: "reqflow: unknown flag '--bogus'\nhint: see reqflow test --help\n" });
    } finally {
      dir.cleanup();
    }
  });

  test("oclif's errors in reqflow's style: unknown command or flag, with the one meant; an extra argument", async () => {
    const cases: Array<[string[], string]> = [
      [['rn', file], 'reqflow: unknown command "rn"\nhint: did you mean reqflow run?\n'],
      [['oauth', 'logni'], 'reqflow: unknown command "oauth logni"\nhint: did you mean reqflow oauth login?\n'],
      [['oauth', 'bogus'], 'reqflow: unknown command "oauth bogus"\nhint: the commands of reqflow oauth are login, logout, status\n'],
      [['nothing-here'], 'reqflow: unknown command "nothing-here"\nhint: see reqflow --help for the commands; reqflow FILE runs a request file, reqflow DIR opens the UI over a folder\n'],
      [['--evn', 'dev'], "reqflow: unknown flag '--evn'\nhint: did you mean --env? (see reqflow tui --help)\n"],
      [['oauth', 'login', '--profle', 'x'], "reqflow: unknown flag '--profle'\nhint: did you mean --profile? (see reqflow oauth login --help)\n"],
      [['tui', 'a', 'b'], 'reqflow: unexpected argument "b"\nhint: see reqflow tui --help\n'],
    ];
    for (const [args, stderr] of cases) {
      const r = await runCli(args, { env: env(), cwd: tmp.dir });
      expect({ args, code: r.code, stderr: r.stderr, stdout: r.stdout }).toEqual({ args, code: 2, stderr, stdout: '' });
    }
  });

  test('a URL, or a method and a URL, where a request file goes: what to write instead', async () => {
    const r = await runCli(['GET', `${api.url}/health`], { env: env(), cwd: tmp.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`reqflow: reqflow runs request files, not URLs: GET ${api.url}/health\nhint: to send one request: reqflow send GET ${api.url}/health\n`);
  });
});
