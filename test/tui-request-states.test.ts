/**
 * The per-request state of the terminal UI without a screen: request identity, each request's
 * running and last send, a cancel that keeps the previous response, the elapsed clock that
 * ticks only while switched on, and the checks list of the response pane.
 */
import { describe, expect, it, jest } from '@jest/globals';
import type { RequestSpec } from '../src/core/model.js';
import type { Exchange } from '../src/tui/exchange.js';
import { checksText } from '../src/tui/panes/checks-view.js';
import { elapsed } from '../src/tui/panes/response-pane.js';
import { RequestStates, requestId } from '../src/tui/request-states.js';
import { ResponseCapture } from '../src/tui/response-capture.js';
import { stripAnsi } from '../src/tui/response-capture.js';
import { Ticker } from '../src/tui/ticker.js';

const spec = (name: string, index: number, file = '/w/api.http'): RequestSpec => ({ name, method: 'GET', url: `http://x/${name}`, headers: {}, annotations: {}, source: { file, line: 1 + index * 3, index } }) as unknown as RequestSpec;

function exchange(of: RequestSpec, status?: number): Exchange {
  const capture = new ResponseCapture();
  if (status !== undefined) capture.setResponse({ status, statusText: 'X', httpVersion: '1.1', durationMs: 1, size: 0, headers: {} } as never);
  return { spec: of, file: of.source.file, capture, controller: new AbortController(), startedAt: 0, context: 'dev', ranFirst: [] };
}

describe('request identity', () => {
  it('is the file and the position: two requests of a file differ, a copy of one is the same', () => {
    const a = spec('a', 0);
    expect(requestId(a)).not.toBe(requestId(spec('a', 1)));
    expect(requestId({ source: { ...a.source } })).toBe(requestId(a));
    expect(requestId(spec('a', 0, '/w/other.http'))).not.toBe(requestId(a));
  });
});

describe('RequestStates', () => {
  it('keeps each request its own last send, and runs several at once', () => {
    const states = new RequestStates();
    const a = spec('a', 0);
    const b = spec('b', 1);
    expect(states.get(a)).toEqual({});
    const sendA = exchange(a, 200);
    const sendB = exchange(b);
    states.begin(sendA);
    states.begin(sendB);
    expect(states.running()).toHaveLength(2);
    states.finish(sendA);
    expect(states.get(a).shown).toBe(sendA);
    expect(states.get(b).running).toBe(sendB);
    expect(states.get(b).shown).toBeUndefined();
    expect(states.running()).toEqual([sendB]);
  });

  it('a cancel before any response keeps the previous response, noted; a cancel after one keeps what came', () => {
    const states = new RequestStates();
    const a = spec('a', 0);
    const first = exchange(a, 200);
    states.begin(first);
    states.finish(first);
    const cancelled = { ...exchange(a), cancelled: true };
    states.begin(cancelled);
    expect(states.get(a)).toEqual({ shown: first, running: cancelled });
    states.finish(cancelled);
    expect(states.get(a)).toEqual({ shown: first, cancelledBefore: true });
    const stopped = { ...exchange(a, 200), cancelled: true };
    states.begin(stopped);
    states.finish(stopped);
    expect(states.get(a)).toEqual({ shown: stopped });
  });
});

describe('the elapsed clock', () => {
  it('ticks only while on', () => {
    jest.useFakeTimers();
    try {
      const tick = jest.fn();
      const ticker = new Ticker(200, tick);
      jest.advanceTimersByTime(1000);
      expect(tick).not.toHaveBeenCalled();
      ticker.set(true);
      ticker.set(true); // idempotent: one timer
      jest.advanceTimersByTime(1000);
      expect(tick).toHaveBeenCalledTimes(5);
      ticker.set(false);
      jest.advanceTimersByTime(1000);
      expect(tick).toHaveBeenCalledTimes(5);
      expect(ticker.running).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });

  it('is written in tenths of a second', () => {
    expect(elapsed(1000, 2234)).toBe('1.2s');
    expect(elapsed(5000, 4000)).toBe('0.0s');
  });
});

describe('the checks list', () => {
  it('sums up, marks each check with its place, and says what was expected under a failed one (secrets scrubbed)', () => {
    const text = stripAnsi(
      checksText(
        [
          { name: 'status == 200', passed: true, file: '/w/api.http', line: 4 },
          { name: 'body $.id == 5', passed: false, message: 'expected 5, got 7 (s3cret)', file: '/w/sub/b.http', line: 9 },
          { name: 'the script', passed: false, message: 'boom', error: true, file: '/w/api.http', line: 12 },
        ],
        '/w',
        (t) => t.replace('s3cret', '•••'),
      ),
    );
    expect(text.split('\n')).toEqual(['checks: 2 of 3 failed', '✓ status == 200  api.http:4', '✗ body $.id == 5  sub/b.http:9', '    expected 5, got 7 (•••)', '✗ the script  api.http:12', '    could not check: boom']);
    expect(stripAnsi(checksText([{ name: 'ok', passed: true, file: '/w/a.http', line: 1 }], '/w', (t) => t)).split('\n')[0]).toBe('checks: all 1 passed');
  });
});
