/**
 * The history: every request `reqflow run`, `reqflow test` and the UI send is kept per project and
 * profile, with its secrets masked before it reaches the disk; `--no-history` and a profile's
 * `"history": false` keep nothing; the file is capped and rotated; a writer killed mid-write
 * leaves a history that still reads.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, runCli, tempDir } from './helpers/cli.js';
import { historyFileFor, historyLines, historyProject } from './helpers/history-file.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';
import { harnessPerTest, isolatedEnv } from './helpers/tui-harness.js';

const TOKEN = 'tok-from-login-7f3a9';
const SERVER_COOKIE = 'srv-cookie-5b21c8';

let server: Recorder;
const tmp = tempDir('reqflow-history-');
const stateDir = join(tmp.dir, 'state');
const env = { REQFLOW_STATE_DIR: stateDir };
const startHarness = harnessPerTest();

beforeAll(async () => {
  server = await startRecorder((req, res) => {
    const last = server.received.at(-1);
    if (req.url === '/login') {
      res.setHeader('Set-Cookie', `sid=${SERVER_COOKIE}; Path=/`);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ token: TOKEN, user: 'alice' }));
    } else if (req.url?.startsWith('/echo')) {
      // What a debugging endpoint does: the request comes back, credentials and all.
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ url: req.url, headers: req.headers, body: last?.body.toString('utf8') }));
    } else if (req.url === '/fail') {
      res.statusCode = 500;
      res.end('broken');
    } else if (req.url === '/big') {
      res.end('x'.repeat(200 * 1024));
    } else if (req.url === '/image') {
      res.setHeader('Content-Type', 'image/png');
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01, 0xff]));
    } else {
      res.end('ok');
    }
  });
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const project = (name: string, files: Record<string, string>, profiles?: string): string => historyProject(tmp, name, files, profiles);

/** Waits (bounded) until `ready` holds. */
async function eventually(ready: () => boolean, timeoutMs = 5000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !ready(); ) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('what is recorded', () => {
  test('reqflow run: one entry per request sent, with its fields', async () => {
    const dir = project('fields', { 'api.http': `### create\nPOST ${server.url}/echo?page=2\nContent-Type: application/json\n\n{"title": "hello"}\n\n### broken\nGET ${server.url}/fail\n` });
    const before = Date.now();
    const result = await runCli(['run', 'api.http'], { env, cwd: dir });
    expect(result.code).toBe(1); // the 500
    const { entries, bad } = historyLines(historyFileFor(stateDir, dir));
    expect(bad).toEqual([]);
    expect(entries).toHaveLength(2);
    const [create, broken] = entries;
    expect(create).toMatchObject({
      v: 1,
      project: dir,
      profile: 'default',
      file: join(dir, 'api.http'),
      name: 'create',
      line: 2,
      method: 'POST',
      url: `${server.url}/echo?page=2`,
      status: 200,
      request: { headers: { 'Content-Type': 'application/json' }, size: 18, body: '{"title": "hello"}' },
      response: { statusText: 'OK' },
    });
    expect(create?.id).toMatch(/^[0-9a-f]{12}$/);
    expect(Date.parse(create?.time ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(create?.durationMs).toBeGreaterThan(0);
    expect(create?.size).toBe(Buffer.byteLength(create?.response?.body ?? ''));
    expect(JSON.parse(create?.response?.body ?? '{}')).toMatchObject({ url: '/echo?page=2', body: '{"title": "hello"}' });
    expect(broken).toMatchObject({ name: 'broken', line: 8, method: 'GET', status: 500, size: 6, response: { body: 'broken', statusText: 'Internal Server Error' } });
    expect(statSync(historyFileFor(stateDir, dir)).mode & 0o777).toBe(0o600);
    expect(statSync(join(historyFileFor(stateDir, dir), '..')).mode & 0o777).toBe(0o700);
  });

  test('reqflow test records its requests too; a network error is an entry without a status; a request never sent is none', async () => {
    const dir = project('test-command', { 'checks.http': `### ok\nGET ${server.url}/ping\n\n?? status == 200\n\n### refused\nGET http://127.0.0.1:1/nothing\n\n### unsent\nGET ${server.url}/{{nowhere}}\n` });
    const result = await runCli(['test', 'checks.http'], { env, cwd: dir });
    expect(result.code).toBe(4);
    const { entries } = historyLines(historyFileFor(stateDir, dir));
    expect(entries.map((e) => e.name)).toEqual(['ok', 'refused']);
    expect(entries[0]).toMatchObject({ status: 200, response: { body: 'ok' } });
    expect(entries[1]?.status).toBeUndefined();
    expect(entries[1]?.error).toMatchObject({ exitCode: 4 });
    expect(entries[1]?.error?.message).toMatch(/127\.0\.0\.1:1/);
  });

  test('a body is kept up to 64 KiB, the cut marked, a binary one only noted; --dry-run records nothing', async () => {
    const dir = project('big', { 'big.http': `GET ${server.url}/big\n`, 'image.http': `GET ${server.url}/image\n` });
    expect((await runCli(['run', 'big.http', '--dry-run'], { env, cwd: dir })).code).toBe(0);
    expect(existsSync(historyFileFor(stateDir, dir))).toBe(false);
    expect((await runCli(['run', 'big.http', '-o', 'raw'], { env, cwd: dir })).code).toBe(0);
    const [entry] = historyLines(historyFileFor(stateDir, dir)).entries;
    expect(entry?.size).toBe(200 * 1024);
    expect(entry?.response?.body).toBe('x'.repeat(64 * 1024));
    expect(entry?.response?.cut).toBe(true);
    expect((await runCli(['run', 'image.http', '-o', 'raw'], { env, cwd: dir })).code).toBe(0);
    const image = historyLines(historyFileFor(stateDir, dir)).entries[1];
    expect(image).toMatchObject({ size: 8, response: { binary: true } });
    expect(image?.response?.body).toBeUndefined();
  });

  test('the UI records what it sends', async () => {
    const dir = project('tui', { 'ui.http': `### from the ui\nGET ${server.url}/ui\n` });
    const uiEnv = isolatedEnv(dir, stateDir);
    const h = await startHarness({ dir, env: uiEnv });
    await h.press('g', 'j', 'enter');
    await h.waitFor('200');
    await eventually(() => historyLines(historyFileFor(stateDir, dir)).entries.length > 0); // written when the send ends
    await h.close();
    const { entries } = historyLines(historyFileFor(stateDir, dir));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ name: 'from the ui', method: 'GET', url: `${server.url}/ui`, status: 200, response: { body: 'ok' } });
  });
});

describe('secrets never reach the history in clear', () => {
  test('bearer token, -e password, basic auth, cookies, API keys in the URL and values echoed back', async () => {
    const password = 'P4ssw0rd-of-alice';
    const apiToken = 'api-tok-91c2d7e0';
    const basicPassword = 'b4sic-s3cret-pw';
    const dir = project('secrets', {
      'secret.http': [
        '### login',
        `POST ${server.url}/login`,
        'Content-Type: application/json',
        '',
        '{"username": "alice", "password": "{{password}}"}',
        '',
        '### me',
        `GET ${server.url}/echo/{{apiToken}}?api_key={{apiToken}}&page=1`,
        'Authorization: Bearer {{token}}',
        'X-Note: sent with {{password}}',
        '',
        '### basic',
        `POST ${server.url}/echo`,
        `Authorization: Basic alice ${basicPassword}`,
        'Content-Type: application/x-www-form-urlencoded',
        '',
        `client_id=app&client_secret=${apiToken}&user=alice`,
        '',
        '### cookie',
        `GET ${server.url}/echo`,
        'Cookie: sid=handwritten-cookie-value',
        '',
      ].join('\n'),
    });
    const result = await runCli(['run', 'secret.http', '-e', `password=${password}`, '-e', `apiToken=${apiToken}`], { env, cwd: dir });
    expect(result.code).toBe(0);
    // The server saw the real values: the run sent them.
    expect(server.received.some((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(server.received.some((r) => r.headers.cookie?.includes(SERVER_COOKIE) === true)).toBe(true);
    const raw = readFileSync(historyFileFor(stateDir, dir), 'utf8');
    for (const secret of [password, apiToken, TOKEN, basicPassword, Buffer.from(`alice:${basicPassword}`).toString('base64'), SERVER_COOKIE, 'handwritten-cookie-value']) {
      expect({ secret, found: raw.includes(secret) || raw.includes(encodeURIComponent(secret)) }).toEqual({ secret, found: false });
    }
    const { entries } = historyLines(historyFileFor(stateDir, dir));
    expect(entries.map((e) => e.name)).toEqual(['login', 'me', 'basic', 'cookie']);
    const [login, me, basic, cookie] = entries;
    expect(login?.request.body).toBe('{"username": "alice", "password": "•••"}');
    expect(login?.response?.headers['set-cookie']).toEqual(['•••']);
    expect(JSON.parse(login?.response?.body ?? '{}')).toEqual({ token: '•••', user: 'alice' });
    expect(me?.url).toBe(`${server.url}/echo/•••?api_key=•••&page=1`);
    expect(me?.request.headers).toMatchObject({ Authorization: '•••', 'X-Note': 'sent with •••' });
    expect(JSON.parse(me?.response?.body ?? '{}').headers).toMatchObject({ authorization: '•••', cookie: '•••', 'x-note': 'sent with •••' });
    expect(basic?.request.headers.Authorization).toBe('•••');
    expect(basic?.request.body).toBe('client_id=app&client_secret=•••&user=alice');
    expect(cookie?.request.headers.Cookie).toBe('•••');
  });
});

describe('turning it off', () => {
  test('--no-history (run and test) and a profile\'s "history": false record nothing', async () => {
    const dir = project('off', { 'off.http': `GET ${server.url}/off\n` }, JSON.stringify([{ name: 'default' }, { name: 'quiet', history: false }]));
    expect((await runCli(['run', 'off.http', '--no-history'], { env, cwd: dir })).code).toBe(0);
    expect((await runCli(['test', 'off.http', '--no-history'], { env, cwd: dir })).code).toBe(0);
    expect(existsSync(historyFileFor(stateDir, dir))).toBe(false);
    expect((await runCli(['run', 'off.http', '-p', 'quiet'], { env, cwd: dir })).code).toBe(0);
    expect((await runCli(['test', 'off.http', '-p', 'quiet'], { env, cwd: dir })).code).toBe(0);
    expect(existsSync(historyFileFor(stateDir, dir, 'quiet'))).toBe(false);
    // The same file with history on: recorded, so the requests above were indeed sent and skipped.
    expect((await runCli(['run', 'off.http'], { env, cwd: dir })).code).toBe(0);
    expect(historyLines(historyFileFor(stateDir, dir)).entries).toHaveLength(1);
  });

  test("a request marked # @no-log (JetBrains: kept out of the history) is not recorded; the others of its file are", async () => {
    const dir = project('no-log', { 'login.http': `### login\n# @no-log\nPOST ${server.url}/login\n\n### after\nGET ${server.url}/after\n` });
    const before = server.received.length;
    expect((await runCli(['run', 'login.http'], { env, cwd: dir })).code).toBe(0);
    expect(server.received.slice(before).map((r) => r.url)).toEqual(['/login', '/after']);
    expect(historyLines(historyFileFor(stateDir, dir)).entries.map((entry) => entry.name)).toEqual(['after']);
  });

  test('"history" must be true or false', async () => {
    const dir = project('bad-setting', { 'a.http': `GET ${server.url}/a\n` }, JSON.stringify([{ name: 'default', history: 'no' }]));
    const result = await runCli(['run', 'a.http'], { env, cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('profiles[0].history: expected true or false');
  });
});

test('two projects using the profile "default" keep separate histories', async () => {
  const alpha = project('alpha', { 'a.http': `### in alpha\nGET ${server.url}/alpha\n` });
  const beta = project('beta', { 'b.http': `### in beta\nGET ${server.url}/beta\n` });
  expect((await runCli(['run', 'a.http'], { env, cwd: alpha })).code).toBe(0);
  expect((await runCli(['run', 'b.http'], { env, cwd: beta })).code).toBe(0);
  expect(historyLines(historyFileFor(stateDir, alpha)).entries.map((e) => e.name)).toEqual(['in alpha']);
  expect(historyLines(historyFileFor(stateDir, beta)).entries.map((e) => e.name)).toEqual(['in beta']);
  const listed = await runCli(['history', '--json'], { env, cwd: beta });
  expect(listed.code).toBe(0);
  expect(listed.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { name: string }).name)).toEqual(['in beta']);
});

test('a file is capped and rotated: one older file is kept, the newest entries read from both', async () => {
  const requests = Array.from({ length: 12 }, (_, i) => `### r${i + 1}\nGET ${server.url}/r${i + 1}\n`).join('\n');
  const dir = project('rotation', { 'many.http': requests });
  const capped = { ...env, REQFLOW_HISTORY_MAX_BYTES: '3000' };
  expect((await runCli(['run', 'many.http', '-o', 'raw'], { env: capped, cwd: dir })).code).toBe(0);
  expect((await runCli(['run', 'many.http', '-o', 'raw'], { env: capped, cwd: dir })).code).toBe(0);
  const file = historyFileFor(stateDir, dir);
  expect(statSync(file).size).toBeLessThanOrEqual(3000);
  expect(statSync(`${file}.1`).size).toBeLessThanOrEqual(3000);
  expect(existsSync(`${file}.2`)).toBe(false);
  const current = historyLines(file).entries;
  const rotated = historyLines(`${file}.1`).entries;
  expect(current.at(-1)?.name).toBe('r12');
  expect(current.length + rotated.length).toBeLessThan(24); // the oldest were dropped
  // `reqflow history` reads the rotated file, then the current one: newest first, in order.
  const listed = await runCli(['history', '--json', '-n', '100'], { env: capped, cwd: dir });
  const names = listed.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { name: string }).name);
  expect(names).toEqual([...rotated, ...current].map((e) => e.name).reverse());
});

test('runs at once that each rotate the file lose none of each other\'s entries (one rotates, the others write on in the new file)', async () => {
  // Each entry is ~0.5 kB: 16 runs are ~8 kB, within twice the 5,000-byte cap, so all are kept.
  for (let round = 0; round < 3; round++) {
    const dir = project(`rotation-race-${round}`, { 'one.http': `### one
GET ${server.url}/one/{{n}}
` });
    const capped = { ...env, REQFLOW_HISTORY_MAX_BYTES: '5000' };
    const results = await Promise.all(Array.from({ length: 16 }, (_, n) => runCli(['run', 'one.http', '-o', 'raw', '-e', `n=${n}`], { env: capped, cwd: dir })));
    expect(results.map((result) => result.code)).toEqual(results.map(() => 0));
    const file = historyFileFor(stateDir, dir);
    const kept = [...historyLines(file).entries, ...(existsSync(`${file}.1`) ? historyLines(`${file}.1`).entries : [])].map((e) => e.url).sort();
    expect(kept).toEqual(Array.from({ length: 16 }, (_, n) => `${server.url}/one/${n}`).sort());
    expect(existsSync(`${file}.lock`)).toBe(false);
  }
});

describe('a writer killed mid-write', () => {
  test('a torn last line is skipped by readers, and the next run starts on a line of its own', async () => {
    const dir = project('torn', { 'one.http': `### one\nGET ${server.url}/one\n` });
    expect((await runCli(['run', 'one.http'], { env, cwd: dir })).code).toBe(0);
    const file = historyFileFor(stateDir, dir);
    appendFileSync(file, '{"v":1,"id":"0123456789ab","time":"2026-'); // what a kill -9 mid-line leaves
    expect((await runCli(['history', '--json'], { env, cwd: dir })).stdout.trim().split('\n')).toHaveLength(1);
    expect((await runCli(['run', 'one.http'], { env, cwd: dir })).code).toBe(0);
    const { entries, bad } = historyLines(file);
    expect(bad).toEqual(['{"v":1,"id":"0123456789ab","time":"2026-']);
    expect(entries.map((e) => e.name)).toEqual(['one', 'one']);
    const listed = await runCli(['history'], { env, cwd: dir });
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim().split('\n')).toHaveLength(3); // the header and two entries
  });

  test('a line torn after its summary is not listed either (history show could not read it)', async () => {
    const dir = project('torn-late', { 'one.http': `### one\nGET ${server.url}/one\n` });
    expect((await runCli(['run', 'one.http'], { env, cwd: dir })).code).toBe(0);
    const file = historyFileFor(stateDir, dir);
    const whole = readFileSync(file, 'utf8').trim();
    // Cut inside the exchange and at its very end, less its last brace: each holds a whole summary.
    for (const cut of [whole.indexOf('"request":') + 20, whole.length - 1]) {
      appendFileSync(file, `${whole.slice(0, cut).replace('"id":"', '"id":"f')}\n`);
    }
    const listed = await runCli(['history', '--json'], { env, cwd: dir });
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim().split('\n')).toHaveLength(1);
    expect(historyLines(file).bad).toHaveLength(2);
  });

  test('SIGKILL at any moment of a long run leaves a history that reads', async () => {
    const requests = Array.from({ length: 1000 }, (_, i) => `### r${i + 1}\nPOST ${server.url}/echo\nContent-Type: text/plain\n\n${'payload '.repeat(1000)}\n`).join('\n');
    const dir = project('killed', { 'long.http': requests });
    const file = historyFileFor(stateDir, dir);
    const size = (): number => (existsSync(file) ? statSync(file).size : 0);
    for (let kill = 0; kill < 4; kill++) {
      const child = spawn(process.execPath, [BIN, 'run', 'long.http', '-o', 'raw'], { cwd: dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: 'ignore' });
      // Killed while it writes, or just after: once the file grows (a MiB at a time), at once or a few ms later.
      const before = size();
      await eventually(() => size() > before, 30_000);
      await new Promise((resolve) => setTimeout(resolve, kill * 2));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('close', resolve));
    }
    const { entries, bad } = historyLines(file);
    expect(bad.length).toBeLessThanOrEqual(4); // at most one torn line per kill
    for (const line of bad) expect(() => JSON.parse(line) as unknown).toThrow();
    const listed = await runCli(['history', '--json', '-n', '100000'], { env, cwd: dir });
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim().split('\n')).toHaveLength(entries.length);
  }, 60_000);
});
