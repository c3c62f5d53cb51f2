/**
 * The history's limits on a URL, header values and an error message (src/history/cap-exchange.ts),
 * the `cut` field the writer adds for them (entry-line.ts), the end of a cut value masked so that
 * a secret split by the cut leaves no beginning (cut-end.ts), and a run's log letting go of the
 * value it cut (log.ts).
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SecretRegistry } from '../src/core/mask.js';
import { capExchange } from '../src/history/cap-exchange.js';
import { splitSecretLength } from '../src/history/cut-end.js';
import { HISTORY_HEADER_LIMIT, HISTORY_HEADERS_LIMIT, HISTORY_URL_LIMIT, type HistoryTarget, type RecordedExchange } from '../src/history/entry.js';
import { HistoryLog } from '../src/history/log.js';
import { appendHistory } from '../src/history/write.js';
import { tempDir } from './helpers/cli.js';
import './helpers/fast-check-seed.js';

const tmp = tempDir('reqflow-history-caps-');
afterAll(() => tmp.cleanup());

const SECRET = 'sk-live-4f9a2b7c';
const K = 1024;
const x = (n: number): string => 'x'.repeat(n);

function exchange(over: Partial<RecordedExchange> = {}): RecordedExchange {
  return { startedAt: Date.UTC(2026, 10, 26), durationMs: 5, file: 'api.http', name: 'big', line: 1, method: 'GET', url: 'http://api.test/', requestHeaders: { Accept: '*/*' }, requestSize: 0, ...over };
}

function target(name: string): HistoryTarget {
  return { path: join(tmp.dir, name, 'history.ndjson'), project: '/p', profile: 'default', maxBytes: 64 * 1024 * 1024 };
}

/** The line `appendHistory` writes of the exchange as the log keeps it, parsed. */
function storedLine(name: string, recorded: RecordedExchange, secrets = new SecretRegistry()): { text: string; entry: Record<string, unknown> } {
  const at = target(name);
  appendHistory(at, [capExchange(recorded).exchange], secrets);
  const text = readFileSync(at.path, 'utf8').trim();
  return { text, entry: JSON.parse(text) as Record<string, unknown> };
}

describe('capExchange', () => {
  test('an exchange within the limits is kept as it is: the same object', () => {
    const whole = exchange({ url: `http://api.test/${x(HISTORY_URL_LIMIT - 16)}`, requestHeaders: { 'X-A': x(HISTORY_HEADER_LIMIT), 'X-B': ['1', '2'] } });
    expect(capExchange(whole).exchange).toBe(whole);
  });

  test('a URL over the limit keeps its beginning, never half a surrogate pair', () => {
    const url = `${x(HISTORY_URL_LIMIT - 1)}😀${x(10)}`;
    const { exchange: kept } = capExchange(exchange({ url }));
    expect(kept.url).toBe(x(HISTORY_URL_LIMIT - 1));
    expect(kept.cut).toEqual({ url: url.length });
  });

  test('each header value to 64 KiB, all of a side to 256 KiB; lines of a repeated header; response headers; the error', () => {
    const sixty = x(60 * K);
    const { exchange: kept } = capExchange(
      exchange({
        requestHeaders: { 'X-1': sixty, 'X-2': sixty, 'X-3': sixty, 'X-4': sixty, 'X-5': sixty, 'X-6': 'late' },
        response: { status: 200, statusText: 'OK', headers: { 'set-cookie': ['a=1', x(70 * K)], server: 'test' }, size: 0 },
        error: { message: `failed: ${x(HISTORY_URL_LIMIT)}`, exitCode: 4 },
      }),
    );
    // 240 KiB for the first four, 16 KiB of the fifth, none left for the sixth.
    expect(Object.fromEntries(Object.entries(kept.requestHeaders).map(([name, value]) => [name, (value as string).length]))).toEqual({ 'X-1': 60 * K, 'X-2': 60 * K, 'X-3': 60 * K, 'X-4': 60 * K, 'X-5': HISTORY_HEADERS_LIMIT - 240 * K, 'X-6': 0 });
    expect(kept.response?.headers).toEqual({ 'set-cookie': ['a=1', x(HISTORY_HEADER_LIMIT)], server: 'test' });
    expect(kept.error).toEqual({ message: `failed: ${x(HISTORY_URL_LIMIT - 8)}`, exitCode: 4 });
    expect(kept.cut).toEqual({ request: { 'X-5': 60 * K, 'X-6': 4 }, response: { 'set-cookie': 3 + 70 * K }, error: HISTORY_URL_LIMIT + 8 });
  });
});

describe('a cut entry as written', () => {
  test('"cut" comes after the error and before the request; the rest of the line is as before', () => {
    const { text, entry } = storedLine('order', exchange({ requestHeaders: { 'X-Big': x(HISTORY_HEADER_LIMIT + 1) }, error: { message: 'refused', exitCode: 4 } }));
    const { id } = entry as { id: string };
    expect(text).toBe(
      JSON.stringify({
        v: 1,
        id,
        time: '2026-11-26T00:00:00.000Z',
        project: '/p',
        profile: 'default',
        file: resolve('api.http'),
        name: 'big',
        line: 1,
        method: 'GET',
        url: 'http://api.test/',
        durationMs: 5,
        size: 0,
        error: { message: 'refused', exitCode: 4 },
        cut: { request: { 'X-Big': HISTORY_HEADER_LIMIT + 1 } },
        request: { headers: { 'X-Big': x(HISTORY_HEADER_LIMIT) }, size: 0 },
        end: true,
      }),
    );
  });

  test('a secret at the start of a cut value is masked; one split by the cut, in any form, leaves no beginning', () => {
    const secrets = new SecretRegistry();
    secrets.add(SECRET);
    const base64 = Buffer.from(SECRET).toString('base64');
    const { text, entry } = storedLine(
      'secrets',
      exchange({
        url: `http://api.test/?q=${x(HISTORY_URL_LIMIT - 24)}${SECRET}${x(10)}`,
        requestHeaders: { 'X-Start': `${SECRET}${x(HISTORY_HEADER_LIMIT)}`, 'X-Split': `${x(HISTORY_HEADER_LIMIT - 5)}${SECRET}`, 'X-B64': `${x(HISTORY_HEADER_LIMIT - 6)}${base64}` },
        response: { status: 200, statusText: 'OK', headers: { 'X-Echo': `${x(HISTORY_HEADER_LIMIT - 9)}${SECRET}` }, size: 0 },
      }),
      secrets,
    );
    expect(text).not.toContain(SECRET.slice(0, 5));
    expect(text).not.toContain(base64.slice(0, 6));
    expect(entry.url).toBe(`http://api.test/?q=${x(HISTORY_URL_LIMIT - 24)}`);
    expect((entry.request as { headers: unknown }).headers).toEqual({ 'X-Start': `•••${x(HISTORY_HEADER_LIMIT - SECRET.length)}`, 'X-Split': x(HISTORY_HEADER_LIMIT - 5), 'X-B64': x(HISTORY_HEADER_LIMIT - 6) });
    expect((entry.response as { headers: unknown }).headers).toEqual({ 'X-Echo': x(HISTORY_HEADER_LIMIT - 9) });
  });

  test('a header the recorder did not cut keeps its end, even one that begins a secret', () => {
    const secrets = new SecretRegistry();
    secrets.add(SECRET);
    const { entry } = storedLine('uncut', exchange({ requestHeaders: { 'X-Big': x(HISTORY_HEADER_LIMIT + 1), 'X-Small': 'ends with sk-l' } }), secrets);
    expect((entry.request as { headers: Record<string, string> }).headers['X-Small']).toBe('ends with sk-l');
  });
});

describe('splitSecretLength', () => {
  test('the longest end of a text that begins a form shorter than the form, as a brute force finds it (property)', () => {
    const brute = (text: string, form: string): number => {
      for (let length = Math.min(form.length - 1, text.length); length > 0; length--) if (text.endsWith(form.slice(0, length))) return length;
      return 0;
    };
    const word = fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: 40 });
    fc.assert(fc.property(word, word, (text, form) => splitSecretLength(text, form) === brute(text, form)));
  });
});

describe('the run\'s log', () => {
  test('lets go of a 64 MB header it cut when the request was recorded', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const log = new HistoryLog(target('memory'), new SecretRegistry(), () => undefined);
    // In a function of its own, as the history hook records: nothing of the request outlives it.
    const record = (): void => {
      const value = `${x(64 * K * K)}!`;
      value.charCodeAt(0); // flat, as a value sent is: 64 MB on the heap (a repeat alone is a few shared pieces)
      log.add(exchange({ requestHeaders: { 'X-Big': value } }));
    };
    gc();
    const before = process.memoryUsage().heapUsed;
    record();
    gc();
    // Kept whole, or as a slice of it (V8's slices point into the string), it would be 64 MB; the log keeps 64 KiB.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(16 * K * K);
    expect(log.target.path).toContain('memory'); // the log, and its waiting entry, are alive still
  });
});
