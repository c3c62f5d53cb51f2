/**
 * A history line is JSON.stringify of the masked entry (src/history/entry-line.ts), its keys in
 * the order readers rely on: held here to the bytes JSON.stringify gives of the entry it stands for
 * — key order, escapes, masking — for awkward exchanges, written to a real file.
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SecretRegistry } from '../src/core/mask.js';
import { HISTORY_BODY_LIMIT, type HistoryTarget, type RecordedExchange } from '../src/history/entry.js';
import { appendHistory } from '../src/history/write.js';
import { tempDir } from './helpers/cli.js';

const tmp = tempDir('reqflow-history-line-');
afterAll(() => tmp.cleanup());

const SECRET = 'sk-live-4f9a2b7c';
const STARTED = Date.UTC(2026, 10, 26, 2, 30, 0, 123);

function target(name: string, extra: Partial<HistoryTarget> = {}): HistoryTarget {
  return { path: join(tmp.dir, name, 'history.ndjson'), project: '/work/pro"ject', profile: 'dév', maxBytes: 64 * 1024 * 1024, ...extra };
}

function written(at: HistoryTarget, batch: RecordedExchange[], secrets = new SecretRegistry()): string[] {
  appendHistory(at, batch, secrets);
  return readFileSync(at.path, 'utf8').split('\n');
}

/** The line's id aside (random), what it must be: JSON.stringify of `entry`. */
function expectLine(line: string | undefined, entry: Record<string, unknown>): void {
  const id = /^\{"v":1,"id":"([0-9a-f]{12})",/.exec(line ?? '')?.[1];
  expect(id).toBeDefined();
  expect(line).toBe(JSON.stringify({ v: 1, id, ...entry, end: true }));
}

describe('a history line', () => {
  test('is the bytes JSON.stringify makes of the masked entry: secrets, escapes, arrays, error, sentWith', () => {
    const secrets = new SecretRegistry();
    secrets.add(SECRET);
    const at = target('full', { profilesFile: '/p/.profiles.json', environment: 'staging' });
    const exchange: RecordedExchange = {
      startedAt: STARTED,
      durationMs: 12.345,
      file: 'api.http',
      name: 'log "in" ✓',
      line: 7,
      method: 'POST',
      url: `https://u:pw@api.test/x?api_key=abc&q=1&v=${SECRET}`,
      requestHeaders: { Authorization: `Bearer ${SECRET}`, 'X-Note': `tab\there "q" \\ ${SECRET} ☃ \ud800 😀`, Accept: ['a/b', 'c/d'], '123': 'numeric name' },
      requestBody: `{"password":"hunter2","user":"al\u0001ice","k":"${SECRET}"}`,
      requestSize: 60,
      response: {
        status: 302,
        statusText: `Found ${SECRET}`,
        headers: { location: `https://next.test/?token=t0k&x=1`, 'set-cookie': ['a=1', 'b=2'], 'content-type': 'application/json' },
        body: Buffer.from(`{"access_token":"zzz","n":1}`),
        size: 28,
      },
      error: { message: `refused by ${SECRET}`, exitCode: 4 },
    };
    const [line, last] = written(at, [exchange], secrets);
    expect(last).toBe('');
    expectLine(line, {
      time: '2026-11-26T02:30:00.123Z',
      project: '/work/pro"ject',
      profile: 'dév',
      file: resolve('api.http'),
      name: 'log "in" ✓',
      line: 7,
      method: 'POST',
      url: 'https://u:•••@api.test/x?api_key=•••&q=1&v=•••',
      status: 302,
      durationMs: 12.3,
      size: 28,
      error: { message: 'refused by •••', exitCode: 4 },
      request: {
        headers: { '123': 'numeric name', Authorization: '•••', 'X-Note': 'tab\there "q" \\ ••• ☃ \ud800 😀', Accept: ['a/b', 'c/d'] },
        size: 60,
        body: '{"password":"•••","user":"al\u0001ice","k":"•••"}',
      },
      response: { statusText: 'Found •••', headers: { location: 'https://next.test/?token=•••&x=1', 'set-cookie': ['•••', '•••'], 'content-type': 'application/json' }, body: '{"access_token":"•••","n":1}' },
      sentWith: { profilesFile: '/p/.profiles.json', environment: 'staging' },
    });
    expect(line).toContain('\\ud800'); // a lone surrogate escaped, as JSON.stringify does
    expect(line?.endsWith(',"end":true}')).toBe(true);
  });

  test('a body cut at the limit (a character split by the cut dropped), a binary one noted, none, no response', () => {
    const at = target('bodies');
    const long = Buffer.from('é'.repeat(HISTORY_BODY_LIMIT)); // 2 bytes each: the cut splits one
    const base = { startedAt: STARTED, durationMs: 1, file: '/abs/f.http', name: 'n', line: 1, method: 'GET', url: 'http://h.test/', requestHeaders: {}, requestSize: 0 };
    const lines = written(at, [
      { ...base, response: { status: 200, statusText: 'OK', headers: {}, body: long.subarray(0, HISTORY_BODY_LIMIT), size: long.length } },
      { ...base, requestBody: Buffer.from([0x89, 0x50, 0x00, 0x01]), requestSize: 4, response: { status: 200, statusText: 'OK', headers: {}, size: 0 } },
      { ...base, durationMs: Number.NaN },
    ]);
    const summary = { time: '2026-11-26T02:30:00.123Z', project: '/work/pro"ject', profile: 'dév', file: '/abs/f.http', name: 'n', line: 1, method: 'GET', url: 'http://h.test/' };
    expectLine(lines[0], { ...summary, status: 200, durationMs: 1, size: long.length, request: { headers: {}, size: 0 }, response: { statusText: 'OK', headers: {}, cut: true, body: 'é'.repeat(HISTORY_BODY_LIMIT / 2) } });
    expectLine(lines[1], { ...summary, status: 200, durationMs: 1, size: 0, request: { headers: {}, size: 4, binary: true }, response: { statusText: 'OK', headers: {} } });
    expectLine(lines[2], { ...summary, durationMs: null, size: 0, request: { headers: {}, size: 0 } });
  });

  test('holds what a terminal or a line reader acts on only as \\u escapes — DEL, C1 controls, bidi controls, U+2028/U+2029 — and reads back the same', () => {
    // JSON.stringify leaves them raw: `cat` of the file ran a server's 8-bit CSI (U+009B), and Python's splitlines cut a line at U+2028.
    const hostile = 'a\u009b2J\u0085b\u007fc\u202eevil\u2066d\u2028e\u2029f';
    const at = target('controls');
    const exchange: RecordedExchange = {
      startedAt: STARTED,
      durationMs: 1,
      file: '/abs/f.http',
      name: `n ${hostile}`,
      line: 1,
      method: 'POST',
      url: 'http://h.test/',
      requestHeaders: {},
      requestBody: hostile,
      requestSize: Buffer.byteLength(hostile),
      response: { status: 200, statusText: `OK ${hostile}`, headers: { 'x-csi': hostile }, trailers: { 'x-t': hostile }, body: Buffer.from(hostile), size: Buffer.byteLength(hostile) },
    };
    const [line] = written(at, [exchange]);
    expect(line).not.toMatch(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(line).toContain('a\\u009b2J\\u0085b\\u007fc\\u202eevil\\u2066d\\u2028e\\u2029f');
    const entry = JSON.parse(line ?? '') as { name: string; request: { body: string }; response: { statusText: string; headers: Record<string, string>; trailers: Record<string, string>; body: string } };
    expect([entry.name, entry.request.body, entry.response.statusText, entry.response.headers['x-csi'], entry.response.trailers['x-t'], entry.response.body]).toEqual([`n ${hostile}`, hostile, `OK ${hostile}`, hostile, hostile, hostile]);
  });

  test('lines longer than the write buffer and thousands of lines come out whole, each ending with "end":true', () => {
    const at = target('many');
    const controls = '\u0001'.repeat(HISTORY_BODY_LIMIT); // 6 bytes each when escaped: a 384 KiB line
    const batch: RecordedExchange[] = Array.from({ length: 3_000 }, (_, i) => ({
      startedAt: STARTED,
      durationMs: i,
      file: '/abs/f.http',
      name: `get ${i}`,
      line: i,
      method: 'GET',
      url: 'http://h.test/',
      requestHeaders: { 'X-I': String(i) },
      requestSize: i % 1000 === 5 ? controls.length : 0,
      ...(i % 1000 === 5 ? { requestBody: controls } : {}),
    }));
    const lines = written(at, batch);
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(3_000);
    lines.forEach((line, i) => {
      expect(line.endsWith(',"end":true}')).toBe(true);
      const entry = JSON.parse(line) as { name: string; request: { headers: Record<string, string>; body?: string } };
      expect([entry.name, entry.request.headers['X-I']]).toEqual([`get ${i}`, String(i)]);
      if (i % 1000 === 5) expect(entry.request.body).toBe(controls);
    });
  });
});
