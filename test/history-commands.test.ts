/**
 * `reqflow history`, `history show`, `history replay` and `history stats`, with the real CLI:
 * over histories written by real runs, and over a history file written here with known
 * durations (so the figures can be checked to the millisecond).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { HistoryEntry } from '../src/history/entry.js';
import { runCli, tempDir } from './helpers/cli.js';
import { historyFileFor, historyLines, historyProject } from './helpers/history-file.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

const DAY = 86_400_000;
let server: Recorder;
const tmp = tempDir('reqflow-history-commands-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  server = await startRecorder((req, res) => {
    if (req.url === '/login') {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ token: 'tok-replay-4242' }));
    } else res.end('ok');
  });
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const project = (name: string, files: Record<string, string>, profiles?: string): string => historyProject(tmp, name, files, profiles);

const lines = (text: string): string[] => text.trim().split('\n').filter(Boolean);

describe('a synthetic history with known figures', () => {
  const dir = project('synthetic', {}, JSON.stringify([{ name: 'default' }, { name: 'staging' }]));
  const now = Date.now();
  let serial = 0;
  // Keys in the writer's order: the summary, then the exchange (readers parse the summary alone), `end` last.
  const entry = (over: Partial<HistoryEntry>): HistoryEntry => {
    const { request, response, end, ...summary } = { ...defaults(), ...over };
    return { ...summary, request, ...(response ? { response } : {}), end };
  };
  const defaults = (): HistoryEntry => ({
    v: 1,
    id: `a0${(serial++).toString(16).padStart(10, '0')}`,
    time: new Date(now - DAY).toISOString(),
    project: dir,
    profile: 'default',
    file: join(dir, 'users.http'),
    name: 'list',
    line: 1,
    method: 'GET',
    url: 'http://api.test/users',
    status: 200,
    durationMs: 10,
    size: 2,
    request: { headers: { Accept: 'application/json' }, size: 0 },
    response: { statusText: 'OK', headers: { 'content-type': 'text/plain' }, body: 'ok' },
    end: true,
  });
  // "list": 10, 20, … 100 ms; the 3rd a 500, the 7th no response at all.
  const list = Array.from({ length: 10 }, (_, i) => {
    const durationMs = (i + 1) * 10;
    if (i === 2) return entry({ durationMs, status: 500, response: { statusText: 'Internal Server Error', headers: {}, body: 'boom' } });
    if (i === 6) {
      const failed = entry({ durationMs, error: { message: 'connection refused: api.test:80', exitCode: 4 } });
      delete failed.status;
      delete failed.response;
      return failed;
    }
    return entry({ durationMs });
  });
  // "login" of auth.http: five of 1 s ten days ago, then twenty alternating 5 and 15 ms this week.
  const login = [
    ...Array.from({ length: 5 }, () => entry({ name: 'login', file: join(dir, 'auth.http'), method: 'POST', url: 'http://api.test/login', durationMs: 1000, time: new Date(now - 10 * DAY).toISOString() })),
    ...Array.from({ length: 20 }, (_, i) => entry({ name: 'login', file: join(dir, 'auth.http'), method: 'POST', url: 'http://api.test/login', durationMs: i % 2 === 0 ? 5 : 15, time: new Date(now - DAY + i).toISOString() })),
  ];
  const secretShown = entry({ id: 'abcd00000001', name: 'me', line: 9, url: 'http://api.test/me?api_key=•••', request: { headers: { Authorization: '•••' }, size: 0 }, response: { statusText: 'OK', headers: { 'set-cookie': ['•••'] }, body: '{"token":"•••","name":"Ada"}' } });
  const twin = entry({ id: 'abcd90000002', name: 'me', line: 9 });

  beforeAll(() => {
    const file = historyFileFor(env.REQFLOW_STATE_DIR, dir);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, [...login.slice(0, 5), ...list, ...login.slice(5), secretShown, twin].map((e) => `${JSON.stringify(e)}\n`).join(''));
  });

  test('reqflow history: newest first, with id, time, method, name, status, duration and URL', async () => {
    const result = await runCli(['history', '-n', '3'], { env, cwd: dir });
    expect(result.code).toBe(0);
    const [header, ...rows] = lines(result.stdout);
    expect(header).toMatch(/^ID\s+TIME\s+METHOD\s+NAME\s+STATUS\s+DURATION\s+URL$/);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^abcd90000002\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+GET\s+me\s+200\s+10 ms\s+http:\/\/api\.test\/users$/);
    expect(rows[1]).toMatch(/^abcd00000001 .* me .*http:\/\/api\.test\/me\?api_key=•••$/);
    expect(rows[2]).toMatch(/POST\s+login\s+200\s+15 ms\s+http:\/\/api\.test\/login$/);
  });

  test('a response that came but failed after its status (a body cut short: exit 4) is listed as "200 ERR", never a plain 200', async () => {
    const cutDir = project('cut-body', {});
    const cut = { ...entry({ name: 'download', error: { message: 'the response body was cut short', exitCode: 4 } }), project: cutDir, file: join(cutDir, 'users.http') };
    const file = historyFileFor(env.REQFLOW_STATE_DIR, cutDir);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(cut)}\n`);
    const result = await runCli(['history'], { env, cwd: cutDir });
    expect(result.code).toBe(0);
    expect(lines(result.stdout)[1]).toMatch(/\sGET\s+download\s+200 ERR\s+10 ms\s/);
  });

  test('history show of an error entry without an exit code (edited by hand, an older version\'s) says so, never "exit undefined"', async () => {
    const oldDir = project('no-exit-code', {});
    const failed = { ...entry({ name: 'down', error: { message: 'connection refused: api.test:80' } as HistoryEntry['error'] }), project: oldDir, file: join(oldDir, 'users.http') };
    delete failed.status;
    delete failed.response;
    const file = historyFileFor(env.REQFLOW_STATE_DIR, oldDir);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(failed)}\n`);
    const result = await runCli(['history', 'show', failed.id], { env, cwd: oldDir });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('undefined');
    expect(lines(result.stdout).at(-1)).toBe('error (no exit code recorded) after 10 ms: connection refused: api.test:80');
    // One that has it still names it.
    const known = await runCli(['history', 'show', list[6]?.id ?? ''], { env, cwd: dir });
    expect(lines(known.stdout).at(-1)).toBe('error (exit 4) after 70 ms: connection refused: api.test:80');
  });

  test('--grep, --json, an error entry, and another profile', async () => {
    const grep = await runCli(['history', '--grep', 'ERR', '--json'], { env, cwd: dir });
    expect(grep.code).toBe(0);
    const found = lines(grep.stdout).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ name: 'list', durationMs: 70, error: { exitCode: 4 } });
    expect(found[0]).not.toHaveProperty('request');
    expect(lines((await runCli(['history', '--grep', 'LOGIN', '-n', '100'], { env, cwd: dir })).stdout)).toHaveLength(26); // the header and 25
    const staging = await runCli(['history', '-p', 'staging'], { env, cwd: dir });
    expect(staging).toMatchObject({ code: 0, stdout: '' });
    expect(staging.stderr).toContain(`no history for profile "staging" in ${dir}`);
    const unknown = await runCli(['history', '-p', 'nope'], { env, cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown profile "nope"');
  });

  test('history show: the exchange as kept, by id or a unique beginning of it', async () => {
    const shown = await runCli(['history', 'show', 'abcd0'], { env, cwd: dir });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('GET http://api.test/me?api_key=•••\nAuthorization: •••\n');
    expect(shown.stdout).toContain('200 OK  10 ms  2 bytes\nset-cookie: •••\n\n{"token":"•••","name":"Ada"}\n');
    const json = await runCli(['history', 'show', list[1]?.id ?? '', '--json'], { env, cwd: dir });
    expect(JSON.parse(json.stdout)).toEqual(list[1]);
    const error = await runCli(['history', 'show', list[6]?.id ?? ''], { env, cwd: dir });
    expect(error.stdout).toContain('error (exit 4) after 70 ms: connection refused: api.test:80');
    const ambiguous = await runCli(['history', 'show', 'abcd'], { env, cwd: dir });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('2 history entries start with abcd');
    const missing = await runCli(['history', 'show', 'ffff0000'], { env, cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no history entry ffff0000');
  });

  test('history stats: count, error rate, p50/p95/max, last status and the latest durations', async () => {
    const result = await runCli(['history', 'stats', '--json'], { env, cwd: dir });
    expect(result.code).toBe(0);
    const stats = lines(result.stdout).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(stats.map((s) => s.name)).toEqual(['login', 'list', 'me']); // by file, then by line
    expect(stats[1]).toEqual({
      file: join(dir, 'users.http'),
      name: 'list',
      count: 10,
      errors: 2,
      errorRate: 0.2,
      p50Ms: 50,
      p95Ms: 100,
      maxMs: 100,
      lastStatus: 200,
      recentMs: [10, 20, 30, 40, 50, 60, 70, 80, 90, 100],
      sparkline: '▁▂▃▃▄▅▆▆▇█',
    });
    expect(stats[0]).toMatchObject({ count: 25, errors: 0, p50Ms: 15, p95Ms: 1000, maxMs: 1000, sparkline: '▁█'.repeat(10) });
    const week = await runCli(['history', 'stats', '--since', '7d', '--json'], { env, cwd: dir });
    expect(JSON.parse(lines(week.stdout)[0] ?? '{}')).toMatchObject({ name: 'login', count: 20, p50Ms: 5, p95Ms: 15, maxMs: 15 });
    const iso = await runCli(['history', 'stats', '--since', new Date(now - 3 * DAY).toISOString().slice(0, 10), '--json'], { env, cwd: dir });
    expect(JSON.parse(lines(iso.stdout)[0] ?? '{}')).toMatchObject({ name: 'login', count: 20 });
    const table = await runCli(['history', 'stats'], { env, cwd: dir });
    expect(lines(table.stdout)[0]).toMatch(/^REQUEST\s+COUNT\s+ERRORS\s+P50\s+P95\s+MAX\s+LAST\s+RECENT$/);
    expect(table.stdout).toMatch(/users\.http list\s+10\s+20\.0 %\s+50 ms\s+100 ms\s+100 ms\s+200\s+▁▂▃▃▄▅▆▆▇█\n/);
    const bad = await runCli(['history', 'stats', '--since', 'last tuesday'], { env, cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since expects a duration such as 30m, 12h, 7d or 2w, or an ISO date');
  });
});

describe('history replay', () => {
  test('sends the request again from its file and name, with today\'s session and the real secrets', async () => {
    const dir = project('replay', { 'me.http': `### login\nPOST ${server.url}/login\n\n### me\nGET ${server.url}/me\nAuthorization: Bearer {{token}}\n` });
    expect((await runCli(['run', 'me.http'], { env, cwd: dir })).code).toBe(0);
    const [, me] = historyLines(historyFileFor(env.REQFLOW_STATE_DIR, dir)).entries;
    expect(me?.request.headers.Authorization).toBe('•••');
    const sent = server.received.length;
    const replay = await runCli(['history', 'replay', me?.id ?? ''], { env, cwd: dir });
    expect(replay.code).toBe(0);
    expect(replay.stderr).toContain(`replaying ${me?.id ?? ''}: "me" of me.http with profile default`);
    expect(server.received.slice(sent).map((r) => [r.method, r.url, r.headers.authorization])).toEqual([['GET', '/me', 'Bearer tok-replay-4242']]);
    // The replay is a run like any other: it is kept too.
    expect(historyLines(historyFileFor(env.REQFLOW_STATE_DIR, dir)).entries.map((e) => e.name)).toEqual(['login', 'me', 'me']);
  });

  test('with the profile it was sent with', async () => {
    const profiles = JSON.stringify([{ name: 'default', variables: { stage: 'dev' } }, { name: 'staging', variables: { stage: 'staging' } }]);
    const dir = project('replay-profile', { 'stage.http': `GET ${server.url}/stage\nX-Stage: {{stage}}\n` }, profiles);
    expect((await runCli(['run', 'stage.http', '-p', 'staging'], { env, cwd: dir })).code).toBe(0);
    const [entry] = historyLines(historyFileFor(env.REQFLOW_STATE_DIR, dir, 'staging')).entries;
    const sent = server.received.length;
    expect((await runCli(['history', 'replay', entry?.id ?? ''], { env, cwd: dir })).code).toBe(0);
    expect(server.received.slice(sent).map((r) => r.headers['x-stage'])).toEqual(['staging']);
  });

  test('a renamed request or a file that is gone: exit 2, saying so, nothing sent', async () => {
    const dir = project('replay-gone', { 'gone.http': `### ping\nGET ${server.url}/ping\n` });
    expect((await runCli(['run', 'gone.http'], { env, cwd: dir })).code).toBe(0);
    const [entry] = historyLines(historyFileFor(env.REQFLOW_STATE_DIR, dir)).entries;
    const sent = server.received.length;
    writeFileSync(join(dir, 'gone.http'), `### pong\nGET ${server.url}/ping\n`);
    const renamed = await runCli(['history', 'replay', entry?.id ?? ''], { env, cwd: dir });
    expect(renamed.code).toBe(2);
    expect(renamed.stderr).toContain('gone.http has no request named "ping" any more (renamed or removed since it was sent)');
    expect(renamed.stderr).toContain('hint: requests in the file: pong');
    renameSync(join(dir, 'gone.http'), join(dir, 'moved.http'));
    const gone = await runCli(['history', 'replay', entry?.id ?? ''], { env, cwd: dir });
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('its request file is gone: gone.http');
    expect(server.received.length).toBe(sent);
  });

  test('an unnamed request whose place now holds another method, or a request read from stdin: exit 2, nothing sent', async () => {
    const dir = project('replay-shifted', { 'd.http': `GET ${server.url}/items/1\n` });
    expect((await runCli(['run', 'd.http'], { env, cwd: dir })).code).toBe(0);
    const [entry] = historyLines(historyFileFor(env.REQFLOW_STATE_DIR, dir)).entries;
    writeFileSync(join(dir, 'd.http'), `DELETE ${server.url}/items/1\n\n###\nGET ${server.url}/items/1\n`);
    const sent = server.received.length;
    const shifted = await runCli(['history', 'replay', entry?.id ?? ''], { env, cwd: dir });
    expect(shifted.code).toBe(2);
    expect(shifted.stderr).toContain('"request-1" of d.http is now a DELETE (line 1); the one sent was a GET at line 1');
    const piped = await runCli(['run', '-'], { env, cwd: dir, input: `GET ${server.url}/stdin\n` });
    expect(piped.code).toBe(0);
    const stdinEntry = historyLines(historyFileFor(env.REQFLOW_STATE_DIR, dir)).entries.at(-1);
    writeFileSync(join(dir, '<stdin>'), `DELETE ${server.url}/items/1\n`);
    const before = server.received.length;
    const fromStdin = await runCli(['history', 'replay', stdinEntry?.id ?? ''], { env, cwd: dir });
    expect(fromStdin.code).toBe(2);
    expect(fromStdin.stderr).toContain('it was read from standard input, so no request file holds it');
    expect(server.received.length).toBe(before);
    expect(server.received.slice(sent).filter((r) => r.method === 'DELETE')).toEqual([]);
  });

  test.each([
    ['.http', 'u.http', (url: string) => `GET ${url}/items/1\n`, (url: string) => `GET ${url}/admin/purge\n\n###\nGET ${url}/items/1\n`],
    ['.http with templates', 't.http', (url: string) => `@host = ${url}\n@id = 1\nGET {{host}}/items/{{id}}\n`, (url: string) => `@host = ${url}\n@id = 1\nGET {{host}}/admin/purge\n\n###\nGET {{host}}/items/{{id}}\n`],
    ['YAML', 'u.yaml', (url: string) => `- url: "${url}/items/1"\n`, (url: string) => `- url: "${url}/admin/purge"\n- url: "${url}/items/1"\n`],
    ['JSON', 'u.json', (url: string) => JSON.stringify([{ url: `${url}/items/1` }]), (url: string) => JSON.stringify([{ url: `${url}/admin/purge` }, { url: `${url}/items/1` }], null, 2)],
  ])('%s: an unnamed request whose place now holds another request of the same method is refused, nothing sent; where it was, it is sent', async (_format, name, before, after) => {
    const dir = project(`replay-same-method-${name}`, { [name]: before(server.url) });
    expect((await runCli(['run', name], { env, cwd: dir })).code).toBe(0);
    const entry = historyLines(historyFileFor(env.REQFLOW_STATE_DIR, dir)).entries.at(-1);
    writeFileSync(join(dir, name), after(server.url));
    const sent = server.received.length;
    const replayed = await runCli(['history', 'replay', entry?.id ?? ''], { env, cwd: dir });
    expect(replayed.code).toBe(2);
    expect(replayed.stderr).toContain(`"request-1" of ${name} has no name of its own, and its URL there is now `);
    expect(replayed.stderr).toContain(`/admin/purge; the one sent was ${server.url}/items/1, so it may be another request`);
    expect(replayed.stderr).toContain('hint: give the request a name of its own');
    expect(server.received.length).toBe(sent);
    writeFileSync(join(dir, name), before(server.url).replace('/items/', '/things/'));
    const edited = await runCli(['history', 'replay', entry?.id ?? ''], { env, cwd: dir });
    expect(edited.code).toBe(2);
    expect(edited.stderr).toContain('/things/');
    expect(edited.stderr).toContain('so it may be another request');
    expect(server.received.length).toBe(sent);
    writeFileSync(join(dir, name), before(server.url));
    const inPlace = await runCli(['history', 'replay', entry?.id ?? ''], { env, cwd: dir });
    expect(inPlace.code).toBe(0);
    expect(server.received.slice(sent).map((r) => r.url)).toEqual(['/items/1']);
  });

  test.each([
    ['YAML', 'r.yaml', (url: string) => `- url: "${url}/x"\n- method: POST\n  url: "${url}/y"\n  body: hello\n`, (url: string) => `- method: DELETE\n  url: "${url}/z"\n- url: "${url}/x"\n- method: POST\n  url: "${url}/y"\n  body: hello\n`],
    ['JSON', 'r.json', (url: string) => JSON.stringify([{ url: `${url}/x` }, { method: 'POST', url: `${url}/y`, body: 'hello' }]), (url: string) => JSON.stringify([{ method: 'DELETE', url: `${url}/z` }, { url: `${url}/x` }, { method: 'POST', url: `${url}/y`, body: 'hello' }])],
  ])('%s: a request without a method (a GET) now in the place of the POST sent is refused, nothing sent', async (_format, name, before, after) => {
    const dir = project(`replay-no-method-${name}`, { [name]: before(server.url) });
    expect((await runCli(['run', name, '-n', 'request-2'], { env, cwd: dir })).code).toBe(0);
    const entry = historyLines(historyFileFor(env.REQFLOW_STATE_DIR, dir)).entries.at(-1);
    expect(entry?.method).toBe('POST');
    writeFileSync(join(dir, name), after(server.url));
    const sent = server.received.length;
    const replayed = await runCli(['history', 'replay', entry?.id ?? ''], { env, cwd: dir });
    expect(replayed.code).toBe(2);
    expect(replayed.stderr).toContain(`"request-2" of ${name} is now a GET`);
    expect(server.received.length).toBe(sent);
  });
});
