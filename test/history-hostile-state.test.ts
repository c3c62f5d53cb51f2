/**
 * The history's file as something else put it there: a symbolic link in its place (the entries
 * were appended to the link's target, 0644 and all), lines edited by hand with fields of the
 * wrong type (an internal error, or `GET [object Object]`), a folder where the file should be
 * (an internal error), a line of 40 MB without an end (read in time that grew with its square);
 * and a replay whose request name now holds two requests (the first, another request, was sent).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { appendFileSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { historyFileFor, historyLines } from './helpers/history-file.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

const tmp = tempDir('reqflow-history-hostile-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
let server: Recorder;
let history = '';

beforeAll(async () => {
  server = await startRecorder();
  tmp.write('.profiles.json', JSON.stringify([{ name: 'default', variables: { baseUrl: server.url } }, { name: 'other', variables: { baseUrl: server.url } }]));
  tmp.write('a.http', '### a\nPOST {{baseUrl}}/echo\n\nbody\n');
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const run = (...args: string[]) => runCli(args, { cwd: tmp.dir, env });

describe('the history file', () => {
  test('a symbolic link in its place is not written through: the run warns and goes on', async () => {
    expect((await run('run', 'a.http', '-o', 'raw')).code).toBe(0);
    history = historyFileFor(env.REQFLOW_STATE_DIR, tmp.dir);
    const victim = tmp.write('victim.txt', 'my own text\n');
    rmSync(history);
    symlinkSync(victim, history);
    const result = await run('run', 'a.http', '-o', 'raw');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`reqflow: warning: cannot write the history: ${history}: a symbolic link, not written through`);
    expect(readFileSync(victim, 'utf8')).toBe('my own text\n');
    expect(statSync(victim).mode & 0o777).not.toBe(0o600);
    rmSync(history);
  });

  test.each([
    ['a named pipe', (path: string) => execFileSync('mkfifo', [path]), 'a named pipe'],
    ['a link to /dev/zero', (path: string) => symlinkSync('/dev/zero', path), 'a device'],
  ])("%s in the file's place (or the rotated one's) is exit 2 naming it for every reader, never read (it waited, or read, for ever)", async (_what, make, kind) => {
    for (const suffix of ['', '.1']) {
      make(`${history}${suffix}`);
      try {
        for (const args of [['history'], ['history', 'stats']]) {
          const result = await runCli(args, { cwd: tmp.dir, env, timeoutMs: 15_000 });
          expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 2, stderr: `reqflow: ${history}${suffix}: it is ${kind}, not a history file\nhint: move it away: reqflow writes the history there\n` });
        }
        // `show` looks for the id in every profile's files: the one it reads is refused, or it finds no entry.
        const shown = await runCli(['history', 'show', 'abcd'], { cwd: tmp.dir, env, timeoutMs: 15_000 });
        expect(shown.code).toBe(2);
      } finally {
        rmSync(`${history}${suffix}`);
      }
    }
  });

  test('lines with fields of the wrong type are skipped by every command; the others are listed', async () => {
    expect((await run('run', 'a.http', '-o', 'raw')).code).toBe(0);
    const [good] = historyLines(history).entries;
    const line = readFileSync(history, 'utf8').trim();
    appendFileSync(history, `${line.replace(/"url":"[^"]*"/, '"url":{"a":1}').replace(/"id":"[^"]*"/, '"id":"badbadbadbad"')}\n`);
    appendFileSync(history, `${line.replace(/"method":"[^"]*"/, '"method":[1]').replace(/"id":"[^"]*"/, '"id":"badbadbadbae"')}\n`);
    for (const args of [['history'], ['history', '--grep', 'a'], ['history', 'stats'], ['history', '--json']]) {
      const result = await run(...args);
      expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: '' });
      expect(result.stdout).not.toContain('badbad');
    }
    expect((await run('history', 'show', good?.id as string)).code).toBe(0);
    const bad = await run('history', 'show', 'badbadbadbad');
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain('[object Object]');
  });

  test('a line of 40 MB without an end is skipped, and read in about the time of its size', async () => {
    appendFileSync(history, `{"v":1,"id":"${'a'.repeat(40 * 1024 * 1024)}`);
    const result = await run('history', '--json');
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n').length).toBe(1); // the one good entry
    writeFileSync(history, readFileSync(history, 'utf8').split('\n').slice(0, 3).join('\n') + '\n');
  }, 60_000);

  test('a folder in its place: every command says so on one line (exit 2), no internal error', async () => {
    const folder = join(dirname(history), 'other.ndjson');
    mkdirSync(folder);
    for (const args of [['history', '-p', 'other'], ['history', 'stats', '-p', 'other']]) {
      const result = await run(...args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toMatch(/^reqflow: .*other\.ndjson: it is a folder, not a history file\n/);
      expect(result.stderr).not.toContain('internal error');
    }
    expect(lstatSync(folder).isDirectory()).toBe(true);
    rmSync(folder, { recursive: true });
  });
});

describe('history replay', () => {
  test('a name that now holds two requests is refused, naming them: nothing is sent', async () => {
    const sent = await run('run', 'a.http', '-o', 'raw');
    expect(sent.code).toBe(0);
    const entries = historyLines(history).entries;
    const id = entries[entries.length - 1]?.id as string;
    tmp.write('a.http', '### a\nDELETE {{baseUrl}}/dangerous\n\n### a\nPOST {{baseUrl}}/echo\n\nbody\n');
    const before = server.received.length;
    const replay = await run('history', 'replay', id);
    expect(replay.code).toBe(2);
    expect(replay.stderr).toMatch(/now has 2 requests named "a" \(lines 2, 5\); the one sent was POST at line 2/);
    expect(server.received.length).toBe(before);
  });
});
