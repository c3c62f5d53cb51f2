/**
 * A request whose header a template made 5 MB, sent by the real CLI to a server on 127.0.0.1: its
 * history line stays small and says what was cut, `history`, `show` and `stats` note it, `replay`
 * refuses it (exit 2, naming the id and the header) and sends nothing, while a whole entry of the
 * same history replays as before; a secret at the start of the cut value, or split by the cut,
 * does not reach the file.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { HISTORY_HEADER_LIMIT, type HistoryEntry } from '../src/history/entry.js';
import { runCli, tempDir } from './helpers/cli.js';
import { historyFileFor, historyLines, historyProject } from './helpers/history-file.js';

const HALF = 2_621_440; // a `$(…)` value holds at most 4 MiB: two make the 5 MiB header
const BIG = 2 * HALF;
const TOKEN = 'sk-live-9c41e7d0b2';
/** `{{big}}` from a shell command (a `-e` value that is all `$(…)` runs), `chars` x's long (Node's, so a machine with only Node has it). */
const xs = (name: string, chars: number): string => `${name}=$(node -e 'process.stdout.write("x".repeat(${chars}))')`;

let server: Server;
let base = '';
const received: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
const tmp = tempDir('reqflow-history-cut-');
const stateDir = join(tmp.dir, 'state');
const env = { REQFLOW_STATE_DIR: stateDir };

beforeAll(async () => {
  // Node's 16 KiB header limit raised: the 5 MB header is received and answered like any other.
  server = createServer({ maxHeaderSize: 16 * 1024 * 1024 }, (req, res) => {
    received.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

describe('a request with a 5 MB header built from a -e variable', () => {
  let dir = '';
  let file = '';
  let big: HistoryEntry | undefined;
  let small: HistoryEntry | undefined;

  beforeAll(async () => {
    dir = historyProject(tmp, 'cut', {
      'api.http': `### big\nGET ${base}/big\nX-Big: {{big}}{{big}}\n\n### small\nGET ${base}/small?q=1\nX-Small: yes\n\n### secret\nGET ${base}/secret\nX-Trace: {{api_token}}{{big}}\nX-Split: {{pad}}{{api_token}}{{big}}\n`,
    });
    file = historyFileFor(stateDir, dir);
    const sentBig = await runCli(['run', 'api.http', '-n', 'big', '-e', xs('big', HALF)], { env, cwd: dir });
    expect(sentBig.code).toBe(0);
    expect(received.at(-1)?.headers['x-big']).toHaveLength(BIG); // sent whole: only the history cuts
    expect((await runCli(['run', 'api.http', '-n', 'small'], { env, cwd: dir })).code).toBe(0);
    [big, small] = historyLines(file).entries;
  });

  test('the history line stays small and says what was cut', () => {
    expect(statSync(file).size).toBeLessThan(100 * 1024);
    expect(big?.cut).toEqual({ request: { 'X-Big': BIG } });
    expect(big?.request.headers['X-Big']).toBe('x'.repeat(HISTORY_HEADER_LIMIT));
    expect(small?.cut).toBeUndefined();
    expect(small?.request.headers).toEqual({ 'X-Small': 'yes' });
  });

  test('history, history show and history stats note it', async () => {
    const list = await runCli(['history'], { env, cwd: dir });
    expect(list.code).toBe(0);
    const rows = list.stdout.trim().split('\n');
    expect(rows.find((row) => row.startsWith(big?.id ?? '?'))).toContain(`/big  [cut: request header X-Big (${BIG} characters)]`);
    expect(rows.find((row) => row.startsWith(small?.id ?? '?'))).not.toContain('[cut');

    const show = await runCli(['history', 'show', big?.id ?? ''], { env, cwd: dir });
    expect(show.code).toBe(0);
    expect(show.stdout.split('\n')[1]).toBe(`note: over the history's limits, only the beginning is kept of request header X-Big (${BIG} characters); it cannot be replayed`);
    const json = await runCli(['history', 'show', big?.id ?? '', '--json'], { env, cwd: dir });
    expect((JSON.parse(json.stdout) as HistoryEntry).cut).toEqual({ request: { 'X-Big': BIG } });

    const stats = await runCli(['history', 'stats'], { env, cwd: dir });
    expect(stats.code).toBe(0);
    expect(stats.stderr).toContain('note: 1 of these entries had a URL or header over the history\'s limits');
  });

  test('replay refuses the cut entry (exit 2, its id and what was cut, nothing sent); the whole one replays as before', async () => {
    const before = received.length;
    const refused = await runCli(['history', 'replay', big?.id ?? ''], { env, cwd: dir });
    expect(refused.code).toBe(2);
    const [error, hint, ...rest] = refused.stderr.trim().split('\n');
    expect(error).toBe(`reqflow: cannot replay ${big?.id ?? ''}: the history kept only the beginning of request header X-Big (${BIG} characters), so it does not know what was sent`);
    expect(hint).toMatch(/^hint: /);
    expect(rest).toEqual([]);
    expect(refused.stdout).toBe('');
    expect(received.length).toBe(before);

    const replayed = await runCli(['history', 'replay', small?.id ?? '', '-o', 'raw'], { env, cwd: dir });
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toBe('ok');
    expect(received.slice(before).map((r) => [r.url, r.headers['x-small']])).toEqual([['/small?q=1', 'yes']]);
  });

  test('a secret at the start of a cut value, or split by the cut, does not reach the file', async () => {
    const split = HISTORY_HEADER_LIMIT - 8; // the cut leaves "sk-live-" of the token
    const sent = await runCli(['run', 'api.http', '-n', 'secret', '-e', xs('big', HALF), '-e', xs('pad', split), '-e', `api_token=${TOKEN}`], { env, cwd: dir });
    expect(sent.code).toBe(0);
    expect(received.at(-1)?.headers['x-trace']).toBe(`${TOKEN}${'x'.repeat(HALF)}`);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(TOKEN.slice(0, 8));
    const entry = historyLines(file).entries.at(-1);
    expect(entry?.request.headers['X-Trace']).toBe(`•••${'x'.repeat(HISTORY_HEADER_LIMIT - TOKEN.length)}`);
    expect(entry?.request.headers['X-Split']).toBe('x'.repeat(split));
    expect(entry?.cut).toEqual({ request: { 'X-Trace': TOKEN.length + HALF, 'X-Split': split + TOKEN.length + HALF } });
  });
});
