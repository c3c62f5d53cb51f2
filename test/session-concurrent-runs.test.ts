/**
 * Runs at the same time in one project lose none of each other's session: each run's cookies
 * and script globals are merged into the session entry by entry (cookie by domain, path and
 * name; globals name by name), where the whole cookie jar and the whole globals object of the
 * last run to save used to replace the others'. And a saved cookie whose date is none (an edited
 * or damaged session file) is left out with a warning, where it made every command that loads
 * cookies — `cookies clear` included — fail with tough-cookie's stack trace.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSession } from '../src/core/session.js';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

const RUNS = 6;
const tmp = tempDir('reqflow-session-concurrent-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
let server: Recorder;

beforeAll(async () => {
  // /set/NAME sets the cookie NAME.
  server = await startRecorder((req, res) => {
    const name = /^\/set\/(\w+)/.exec(req.url ?? '')?.[1];
    res.writeHead(200, name ? { 'Set-Cookie': `${name}=v-${name}; Path=/` } : {});
    res.end('ok');
  });
  tmp.write('.profiles.json', JSON.stringify([{ name: 'default', variables: { baseUrl: server.url } }]));
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const run = (...args: string[]) => runCli(args, { cwd: tmp.dir, env });

describe('runs at the same time', () => {
  test(`${RUNS} runs, each setting a cookie and a global of its own: all ${RUNS} of each are kept`, async () => {
    for (let i = 1; i <= RUNS; i++) tmp.write(`c${i}.http`, `GET {{baseUrl}}/set/c${i}\n\n> {%\n  client.global.set("g${i}", "v${i}");\n%}\n`);
    const results = await Promise.all(Array.from({ length: RUNS }, (_, i) => run('run', `c${i + 1}.http`, '-o', 'raw')));
    expect(results.map((result) => result.code)).toEqual(Array.from({ length: RUNS }, () => 0));
    const cookies = await run('cookies', 'list');
    expect(cookies.code).toBe(0);
    expect(cookies.stdout.split('\n').filter((line) => /\tc\d\t/.test(line)).length).toBe(RUNS);
    const globals = await run('globals', 'list');
    expect(globals.code).toBe(0);
    for (let i = 1; i <= RUNS; i++) expect(globals.stdout).toContain(`g${i}`);
  }, 60_000);

  test('a cookie changed by one run and another set by a second run at the same time: both as they left them', async () => {
    tmp.write('login.http', 'GET {{baseUrl}}/set/c1\n');
    tmp.write('other.http', 'GET {{baseUrl}}/set/other\n');
    const [a, b] = await Promise.all([run('run', 'login.http', '-o', 'raw'), run('run', 'other.http', '-o', 'raw')]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const cookies = await run('cookies', 'list');
    expect(cookies.stdout.split('\n').filter((line) => /\t(c\d|other)\t/.test(line)).length).toBe(RUNS + 1);
  }, 60_000);
});

describe('a saved cookie whose date is none', () => {
  test('is left out with a warning; the others are sent, listed and cleared', async () => {
    const sessions = join(tmp.dir, 'state', 'sessions');
    const [folder] = readdirSync(sessions);
    const file = join(sessions, folder as string, 'default.json');
    writeFileSync(file, JSON.stringify({ version: 1, variables: {}, data: { cookies: { cookies: [
      { key: 'bad', value: 'b', domain: '127.0.0.1', path: '/', expires: 'notadate' },
      { key: 'good', value: 'fine', domain: '127.0.0.1', path: '/', expires: 'Infinity' },
    ] } } }));
    const listed = await run('cookies', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stderr).toBe('reqflow: warning: 1 cookie saved for profile "default" had a date that is none (an edited or damaged session file): left out\n');
    expect(listed.stdout).toMatch(/\tgood\t/);
    tmp.write('plain.http', 'GET {{baseUrl}}/plain\n');
    const before = server.received.length;
    expect((await run('run', 'plain.http', '-o', 'raw')).code).toBe(0);
    expect(server.received.slice(before).map((r) => r.headers.cookie)).toEqual(['good=fine']);
    expect((await run('cookies', 'clear')).code).toBe(0);
  });
});

describe('a session file of another shape', () => {
  const sessionFile = (): string => {
    const sessions = join(tmp.dir, 'state', 'sessions');
    return join(sessions, readdirSync(sessions)[0] as string, 'default.json');
  };

  test.each([['a list', '[]'], ['a string', '"x"'], ['data as a list', '{"version":1,"variables":{},"data":[]}']])('%s is moved aside with a warning, never read as an empty session and written over', async (_label, text) => {
    const file = sessionFile();
    writeFileSync(file, text);
    const result = await run('run', 'plain.http', '-o', 'raw');
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warning: session file of profile "default" was corrupt; moved it to .*default\.json\.corrupt-\d+ and started a new session/);
    const aside = readdirSync(join(file, '..')).filter((name) => name.startsWith('default.json.corrupt-'));
    expect(aside.length).toBeGreaterThan(0);
  });

  test('one written by a later reqflow (version 2) is neither read nor written over: exit 2 naming it', async () => {
    const file = sessionFile();
    const later = '{"version":2,"variables":{"token":"t"},"data":{},"future":{"kept":true}}';
    writeFileSync(file, later);
    const result = await run('run', 'plain.http', '-o', 'raw');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^reqflow: .*default\.json: the session of profile "default" was written by a later reqflow \(version 2\): not read, not written over\n/);
    expect(readFileSync(file, 'utf8')).toBe(later);
    expect((await run('run', 'plain.http', '-o', 'raw', '--no-session')).code).toBe(0);
  });
});

describe('the merge over several saves of one run', () => {
  test('what another run saved between this run\'s first and second save stays (the second save once took it for removed)', async () => {
    const options = { project: join(tmp.dir, 'merge-project'), env };
    const a = await loadSession('default', options);
    const b = await loadSession('default', options);
    b.setData('reqflow.globals', { gb: 'from b' });
    await b.save();
    a.setData('reqflow.globals', { ga: 'first' });
    await a.save();
    a.setData('reqflow.globals', { ga: 'first', ga2: 'second' });
    await a.save();
    const after = await loadSession('default', options);
    expect(after.getData('reqflow.globals')).toEqual({ gb: 'from b', ga: 'first', ga2: 'second' });
  });
});
