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

  test('only the stream\'s leading BOM is dropped; bytes that are not UTF-8 read as U+FFFD, as TextDecoder reads them', () => {
    expect(parse('data: \uFEFFx\n\n')).toEqual([{ data: '\uFEFFx' }]);
    expect(parse('\n\uFEFFdata: x\n\n')).toEqual([]); // a field named "\uFEFFdata"
    expect(parse(Buffer.from([...Buffer.from('data: a'), 0xc3, 0x0a, ...Buffer.from('id: '), 0xff, 0x0a, ...Buffer.from('data: '), 0xe2, 0x82, 0x0a, 0x0a]))).toEqual([{ data: 'a\uFFFD\n\uFFFD', id: '\uFFFD' }]);
  });

  test('blank lines around events, their CR and LF split across chunks, an event begun without data', () => {
    expect(parse('data: a\r', '\n\r\n\r', '\n\n', 'event: x\n\n\n\r\ndata: b\n\n')).toEqual([{ data: 'a' }, { data: 'b' }]);
    expect(parse('\r', '\n', 'data: c\r', '\r')).toEqual([{ data: 'c' }]);
  });
});

describe('bounded', () => {
  /** Feeds 64 KiB chunks of `line` until the parser throws; returns the bytes fed by then (a cap keeps the loop finite). */
  function bytesUntilRefused(line: string): number {
    const parser = new EventStreamParser();
    const chunk = Buffer.from(line.repeat(Math.ceil(65_536 / line.length)));
    let fed = 0;
    try {
      for (; fed < 256 * 1024 * 1024; fed += chunk.length) parser.push(chunk);
    } catch (error) {
      expect((error as Error).message).toBe('the server sent an event larger than 16 MiB');
    }
    return fed;
  }

  test('an event\'s size is what it holds: 16 MiB of empty data lines (their line feeds), of short ones, of one line', () => {
    const limit = 16 * 1024 * 1024;
    const emptyLines = bytesUntilRefused('data\n') / 5; // a line feed joins each to the next
    expect(emptyLines).toBeGreaterThan(limit - 65_536);
    expect(emptyLines).toBeLessThan(limit + 65_536);
    expect(bytesUntilRefused('data:x\n') / 7).toBeLessThan(limit / 2 + 65_536); // "x" and a line feed each
    expect(bytesUntilRefused('x')).toBeLessThan(limit + 65_536);
  }, 120_000);
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

  test('256 MB of blank lines with no event begun: skipped a run at a time, not one line at a time (well under a second on a quiet machine)', () => {
    const parser = new EventStreamParser();
    const chunk = Buffer.alloc(65_536, '\r\n');
    const started = process.hrtime.bigint();
    for (let total = 0; total < 256 * 1024 * 1024; total += chunk.length) expect(parser.push(chunk)).toEqual([]);
    expect(parser.push('data: after\n\n')).toEqual([{ data: 'after' }]);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(20_000); // a guard, not a benchmark: each line dispatched an empty event, 320 MB took 25-60 s
  }, 120_000);
});
