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
import { requestMoves, sameAsWritten } from '../src/tui/request-moves.js';
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

describe('requestMoves (a request file read again)', () => {
  const catalog = (specs: RequestSpec[]) => ({ root: '/w', truncated: false, files: [{ path: '/w/api.http', label: 'api.http', specs }] });
  it('follows named requests to their new places, unnamed ones by method and URL, the k-th of a name to the k-th', () => {
    const unnamed = (index: number, url: string): RequestSpec => ({ ...spec(`request-${index + 1}`, index), url }) as RequestSpec;
    const before = [spec('a', 0), spec('dup', 1), spec('dup', 2), unnamed(3, 'http://x/u')];
    const after = [spec('new', 0), spec('a', 1), spec('dup', 2), spec('dup', 3), unnamed(4, 'http://x/u')];
    const { moves } = requestMoves(catalog(before), catalog(after));
    expect([...moves].map(([from, to]) => [from.slice(-2), to.slice(-2)])).toEqual([['#0', '#1'], ['#1', '#2'], ['#2', '#3'], ['#3', '#4']]);
    // A renamed request, or an unnamed one whose URL changed, carries nothing over.
    expect(requestMoves(catalog([spec('a', 0), unnamed(1, 'http://x/u')]), catalog([spec('b', 0), unnamed(1, 'http://x/v')])).moves.size).toBe(0);
  });

  it('RequestStates.remap moves each state; a running send whose request is gone stays reachable', () => {
    const states = new RequestStates();
    const a = spec('a', 0);
    const b = spec('b', 1);
    const done = exchange(a, 200);
    states.begin(done);
    states.finish(done);
    const running = exchange(b);
    states.begin(running);
    const movedA = spec('a', 1);
    states.remap({ moves: new Map([[requestId(a), requestId(movedA)]]), reread: new Set(['/w/api.http']) });
    expect(states.get(movedA).shown).toBe(done);
    expect(states.get(a).shown).toBeUndefined();
    expect(states.running().length).toBe(1);
    expect(states.running()[0]).toBe(running);
    // b is gone and a is at its old place now: b's send ends without becoming a's response.
    states.finish(running);
    expect(states.running().length).toBe(0);
    expect(states.get(movedA).shown).toBe(done);
  });

  it('a file that does not parse now keeps its requests\' states (an editor\'s save half done), as does a file not in the tree', () => {
    const states = new RequestStates();
    const a = spec('a', 0);
    const other = spec('dep', 0, '/elsewhere/dep.http');
    for (const of of [a, other]) {
      const done = exchange(of, 200);
      states.begin(done);
      states.finish(done);
    }
    const broken = { root: '/w', truncated: false, files: [{ path: '/w/api.http', label: 'api.http', specs: [], error: new Error('half written') }] };
    states.remap(requestMoves({ root: '/w', truncated: false, files: [{ path: '/w/api.http', label: 'api.http', specs: [a] }] }, broken));
    expect(states.get(a).shown).toBeDefined();
    expect(states.get(other).shown).toBeDefined();
  });

  it('sameAsWritten: a send is shown as sent only while its request reads the same', () => {
    const a = spec('a', 0);
    expect(sameAsWritten(a, { ...a, source: { ...a.source, line: 9 } } as RequestSpec)).toBe(true);
    expect(sameAsWritten(a, { ...a, url: 'http://x/other' } as RequestSpec)).toBe(false);
    expect(sameAsWritten(a, { ...a, headers: { 'X-A': '1' } } as RequestSpec)).toBe(false);
    expect(sameAsWritten(a, { ...a, annotations: { script: 'edited' } } as RequestSpec)).toBe(false);
  });
});
