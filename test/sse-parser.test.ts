import { describe, expect, test } from '@jest/globals';
import { EventStreamParser } from '../src/plugins/sse/parser.js';

/** Feeds the text in the given pieces and collects every event. */
function parse(...pieces: Array<string | Uint8Array>): unknown[] {
  const parser = new EventStreamParser();
  return pieces.flatMap((piece) => parser.push(piece));
}

describe('EventStreamParser (WHATWG event-stream rules)', () => {
  test('fields, comments and the blank line that dispatches', () => {
    expect(parse(': hello\n\nevent: tick\nid: 7\ndata: {"n":1}\n\n')).toEqual([{ event: 'tick', id: '7', data: '{"n":1}' }]);
  });

  test('multi-line data joins with \\n; one leading space after the colon is dropped, others kept', () => {
    expect(parse('data: a\ndata:b\ndata:   c\n\n')).toEqual([{ data: 'a\nb\n  c' }]);
  });

  test('CRLF, CR and LF line ends, even mixed', () => {
    expect(parse('data: one\r\n\r\ndata: two\r\rdata: three\n\n')).toEqual([{ data: 'one' }, { data: 'two' }, { data: 'three' }]);
  });

  test('a CR at the end of a chunk and its LF in the next make one line end', () => {
    expect(parse('data: x\r', '\n\r', '\ndata: y\n\n')).toEqual([{ data: 'x' }, { data: 'y' }]);
  });

  test('events split anywhere across chunks, including inside a UTF-8 character', () => {
    const bytes = Buffer.from('data: caf\u00e9\n\n', 'utf8');
    const cut = bytes.indexOf(0xc3) + 1;
    expect(parse(bytes.subarray(0, cut), bytes.subarray(cut))).toEqual([{ data: 'café' }]);
  });

  test('a leading BOM is ignored', () => {
    expect(parse('\uFEFFdata: ok\n\n')).toEqual([{ data: 'ok' }]);
  });

  test('an event without data is not dispatched; an empty data line is', () => {
    expect(parse('event: ping\n\nevent: complete\ndata:\n\n')).toEqual([{ event: 'complete', data: '' }]);
  });

  test('an unfinished event at the end is not dispatched', () => {
    expect(parse('data: whole\n\ndata: half')).toEqual([{ data: 'whole' }]);
  });

  test('retry and unknown fields are ignored; a field without a colon is a field with an empty value', () => {
    expect(parse('retry: 1000\nfoo: bar\ndata\n\n')).toEqual([{ data: '' }]);
  });

  test('the id shows only on the event that carried it', () => {
    expect(parse('id: 1\ndata: a\n\ndata: b\n\n')).toEqual([{ id: '1', data: 'a' }, { data: 'b' }]);
  });
});

describe('linear time', () => {
  test('20 MB of events, and one 10 MB line fed in small chunks, parse in linear time (well under a second each on a quiet machine)', () => {
    const event = `event: tick\nid: 1\ndata: ${'y'.repeat(80)}\n\n`;
    const chunk = Buffer.from(event.repeat(1000));
    let parser = new EventStreamParser();
    let started = process.hrtime.bigint();
    let count = 0;
    for (let total = 0; total < 20_000_000; total += chunk.length) count += parser.push(chunk).length;
    expect(count).toBeGreaterThan(180_000);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(20_000); // a guard against quadratic time (that takes minutes), not a benchmark: a busy 2-core machine took 2.2 s
    parser = new EventStreamParser();
    const piece = Buffer.from('z'.repeat(4096));
    parser.push('data: ');
    started = process.hrtime.bigint();
    for (let total = 0; total < 10_000_000; total += piece.length) parser.push(piece);
    expect(parser.push('\n\n')).toHaveLength(1);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(20_000); // a guard against quadratic time (that takes minutes), not a benchmark: a busy 2-core machine took 2.2 s
  }, 60_000);
});
