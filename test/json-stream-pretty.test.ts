import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { palette } from '../src/report/render/colors.js';
import { smallJsonText } from '../src/report/render/json-body.js';
import { JsonBodyPrinter, VALIDATION_WINDOW } from '../src/report/render/json-stream-render.js';
import { JsonEncodingError, JsonHoldLimitError, JsonNumberLimitError, JsonPrettyPrinter, JsonSyntaxError, prettyJsonText, type JsonPrettyOptions } from '../src/report/render/json-stream-pretty.js';
import { ROOT, runCli, tempDir } from './helpers/cli.js';
import { parseJsonExact, stringifyJson } from '../src/core/json-exact.js';
import { visibleJson } from '../src/report/render/visible.js';

const run = promisify(execFile);

/** What the printer must produce for `text`: what JSON.parse + JSON.stringify give, numbers as written, terminal controls escaped. */
function reference(text: string): string {
  const { value, lossless } = parseJsonExact(text);
  return visibleJson(stringifyJson(value, lossless, 2));
}

/** Feeds `bytes` in the given pieces and returns the output. */
function printPieces(pieces: Uint8Array[], options: JsonPrettyOptions = {}): string {
  const out: Buffer[] = [];
  const printer = new JsonPrettyPrinter((chunk) => out.push(Buffer.from(chunk)), options);
  for (const piece of pieces) printer.push(piece);
  printer.end();
  return Buffer.concat(out).toString('utf8');
}

/** The document cut at every byte position (two pieces each), and fed one byte at a time. */
function expectSameAtEveryBoundary(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  const want = reference(text);
  for (let cut = 0; cut <= bytes.length; cut++) {
    const got = printPieces([bytes.subarray(0, cut), bytes.subarray(cut)]);
    if (got !== want) throw new Error(`cut at byte ${cut} of ${JSON.stringify(text)}:\n${got}\n!==\n${want}`);
  }
  expect(printPieces([...bytes].map((byte) => Uint8Array.of(byte)))).toBe(want);
}

/** Text as 64 KiB pieces, the way a response body arrives. */
function chunked(text: string): Buffer[] {
  const bytes = Buffer.from(text);
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 65_536) pieces.push(bytes.subarray(at, at + 65_536));
  return pieces;
}

const stripAnsi = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

const DOCUMENTS: Record<string, string> = {
  'empty object': '{}',
  'empty array': '[]',
  'empty containers nested': '{"a":{},"b":[],"c":[{},[],[[]],{"d":{}}]}',
  'top-level string': '"hello"',
  'top-level number': '42',
  'top-level literals': '[true,false,null]',
  'whitespace everywhere': ' \n\t\r{ "a" : [ 1 , 2 , { "b" : null } ] , "c" : "d" } \n',
  'already pretty': JSON.stringify({ a: [1, { b: 'c' }], d: { e: { f: [] } } }, null, 4),
  nested: '{"user":{"id":1,"name":"Ada","roles":["admin","dev"],"address":{"city":"London","geo":{"lat":51.5,"lng":-0.12}}},"ok":true}',
  'integers': '[0,-1,1,123456789012345,1234567890123456,12345678901234567890,9007199254740993,-9007199254740993]',
  'decimals': '[1.0,1.50,0.1,0.000001,0.0000001,1.25,-0.5,123.456,3.141592653589793,0.1000000000000000055511151231257827]',
  'exponents': '[1e2,1E2,1e+2,1e-2,1.5e300,1e21,1e-7,2.5E-3,1e400,-1e400,5e-324,1e-400,1.7976931348623157e308]',
  'negative zero': '[-0,-0.0,0.0,-0e5,0e-3]',
  'string escapes': '["a\\"b","back\\\\slash","\\/slash","\\b\\f\\n\\r\\t","\\u0000\\u001f\\u007f\\u0080"]',
  'unicode escapes': '["\\u00e9t\\u00E9","\\u2028\\u2029","\\uD83D\\uDE00","\\ud83d\\ude00x","\\u00A0"]',
  'lone surrogates': '["\\ud800","\\udc00","\\ud800\\ud800","\\udc00\\ud800","\\ud83dx","a\\ud83d"]',
  'escaped high, raw pair after': '["\\ud83d😀","😀\\ude00"]',
  'raw unicode': '{"greeting":"héllo wörld","emoji":"😀🎉","cjk":"漢字","rtl":"שלום","combining":"é"}',
  'unicode keys': '{"é":1,"\\u00e9x":2,"😀":3,"\\"quoted\\"":4,"":5}',
  'control characters escaped': '"tab\\there\\u0001\\u000b"',
  // DEL, C1 (U+0080–U+009F: 0xC2 …) and bidi controls (0xE2 …), raw and escaped, beside harmless 0xC2/0xE2 characters.
  'terminal controls escaped': '{"v":"a\u007f\u0085\u009b[31m\u00a0«\u202a\u202e\u2066\u2069’\u2028—","k\u009b\u202e":1,"e":"\\u009b\\u202E\\u00a0","k\\u009b\\u202e":2}',
  'duplicate keys': '{"a":1,"b":2,"a":3}',
  'duplicate keys via escapes': '{"a":1,"\\u0061":2,"b":{"x":1,"x":{"y":2}}}',
  'index keys reordered': '{"b":1,"2":2,"1":3,"a":4,"0":5}',
  'index key bounds': '{"z":0,"4294967295":1,"4294967294":2,"01":3,"-1":4,"1.5":5,"1e3":6,"10":7,"9":8}',
  'index keys and duplicates together': '{"x":1,"1":2,"x":3,"0":4,"1":5}',
  'proto key': '{"__proto__":{"polluted":true},"constructor":1,"toString":2}',
  'shape changes between siblings': '[{"a":1,"b":2},{"a":1,"b":2},{"b":1,"a":2},{"a":1},{"a":1,"b":2,"c":3},{"1":1,"a":2},{"a":2,"1":1},{"a":1,"a":2}]',
  'deep nesting': `${'['.repeat(200)}${'{"k":'.repeat(100)}1${'}'.repeat(100)}${']'.repeat(200)}`,
};

describe('JsonPrettyPrinter: output equals JSON.stringify(JSON.parse(x), null, 2)', () => {
  for (const [name, text] of Object.entries(DOCUMENTS)) {
    it(`${name}, at every chunk boundary`, () => {
      expect(prettyJsonText(text)).toBe(reference(text));
      expectSameAtEveryBoundary(text);
    });
  }

  it('drops a byte-order mark, as the text decoder does', () => {
    expect(printPieces([Buffer.from('\uFEFF{"a":1}')])).toBe(reference('{"a":1}'));
  });

  it('any JSON value, compact or indented (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), fc.constantFrom(undefined, 1, 2, '\t', ' \n '), (value, indent) => {
        const text = JSON.stringify(value, null, indent as string | number | undefined);
        expect(prettyJsonText(text)).toBe(reference(text));
      }),
      { numRuns: 400 },
    );
  });

  it('any JSON text fast-check writes, including odd strings, cut anywhere (property)', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 4, stringUnit: 'binary' }), fc.nat(), (text, at) => {
        const bytes = Buffer.from(text);
        const cut = at % (bytes.length + 1);
        expect(printPieces([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe(reference(text));
      }),
      { numRuns: 400 },
    );
  });

  it('number literals in every form JSON allows (property)', () => {
    const digits = (min: number, max: number): fc.Arbitrary<string> => fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((d) => d.join(''));
    const integer = fc.oneof(fc.constant('0'), fc.tuple(fc.constantFrom(...'123456789'), digits(0, 22)).map(([a, b]) => a + b));
    const number = fc
      .tuple(fc.boolean(), integer, fc.option(digits(1, 20)), fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 3))))
      .map(([negative, int, fraction, exponent]) => `${negative ? '-' : ''}${int}${fraction !== null ? `.${fraction}` : ''}${exponent ? exponent.join('') : ''}`);
    fc.assert(
      fc.property(fc.array(number, { minLength: 1, maxLength: 20 }), (numbers) => {
        const text = `[${numbers.join(',')}]`;
        expect(prettyJsonText(text)).toBe(reference(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('strings with any code units, escaped or raw (property)', () => {
    const unit = fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.constantFrom(0x22, 0x5c, 0x2f, 0x08, 0x0a, 0xe9));
    fc.assert(
      fc.property(fc.array(fc.tuple(unit, fc.constantFrom('raw', 'escape', 'upper')), { maxLength: 30 }), (units) => {
        // Raw lone surrogates cannot travel as UTF-8 bytes: those are always escaped.
        const body = units
          .map(([code, how]) => {
            const char = String.fromCharCode(code);
            const surrogate = code >= 0xd800 && code <= 0xdfff;
            if (how === 'raw' && !surrogate && code >= 0x20 && code !== 0x22 && code !== 0x5c) return char;
            const hex = code.toString(16).padStart(4, '0');
            return `\\u${how === 'upper' ? hex.toUpperCase() : hex}`;
          })
          .join('');
        const text = `{"${body}":"${body}"}`;
        expectSameAtEveryBoundary(text);
      }),
      { numRuns: 150 },
    );
  });

  it('objects with duplicate and array-index keys in any order (property)', () => {
    const key = fc.constantFrom('a', 'b', 'ab', '0', '1', '2', '10', '01', '-1', '4294967294', '4294967295', '\\u0061');
    const member = fc.tuple(key, fc.oneof(fc.integer(), fc.constant('{"n":[1,{"a":2,"a":3}]}'), fc.constant('"s"')));
    fc.assert(
      fc.property(fc.array(fc.array(member, { maxLength: 8 }), { minLength: 1, maxLength: 4 }), (objects) => {
        const text = `[${objects.map((members) => `{${members.map(([k, v]) => `"${k}":${v}`).join(',')}}`).join(',')}]`;
        expect(prettyJsonText(text)).toBe(reference(text));
      }),
      { numRuns: 500 },
    );
  });

  it('a generated 5 MiB document fed in 64 KiB chunks', async () => {
    const { jsonDocument } = await import('../bench/lib/json-doc.js');
    const text = jsonDocument(5 * 2 ** 20).toString('utf8');
    expect(printPieces(chunked(text))).toBe(reference(text));
  });

  it('holds a large object that needs reordering until it closes', () => {
    const filler = Array.from({ length: 40_000 }, (_, i) => `"k${i}":"${'x'.repeat(20)}"`).join(',');
    const text = `{"list":[{"b":1,"0":2,${filler},"b":3}]}`;
    expect(prettyJsonText(text)).toBe(reference(text));
  });

  it('writes big objects out as they come, and says so when a late key would have moved', () => {
    const filler = Array.from({ length: 40_000 }, (_, i) => `"k${i}":"${'x'.repeat(20)}"`).join(',');
    const warnings: string[] = [];
    const out = printPieces(chunked(`{${filler},"k1":"again","7":1}`), { onWarning: (message) => warnings.push(message) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/duplicate key "k1" after it was printed; it is shown in document order/);
    // Document order: every member where it was, nothing lost.
    expect(out.endsWith('"k1": "again",\n  "7": 1\n}')).toBe(true);
    expect(out.split('\n')).toHaveLength(40_000 + 4);
  });

  it('refuses to hold more than holdLimit bytes (or 1 MiB, if more) for an object that needs reordering', () => {
    const filler = Array.from({ length: 120_000 }, (_, i) => `"k${i}":1`).join(',');
    const text = `{"1":0,"a":0,"0":0,${filler}}`;
    expect(() => printPieces(chunked(text), { holdLimit: 64 * 1024 })).toThrow(JsonHoldLimitError);
    expect(printPieces(chunked(text), { holdLimit: 8 * 2 ** 20 })).toBe(reference(text));
  });

  it('prints a long number as written, refuses one longer than holdLimit (or 1 MiB), and a run of letters longer than a literal', () => {
    const long = `[${'7'.repeat(200_000)}]`;
    expect(printPieces(chunked(long))).toBe(`[\n  ${'7'.repeat(200_000)}\n]`);
    expect(() => printPieces(chunked(long), { holdLimit: 100_000 })).toThrow(JsonNumberLimitError);
    expect(() => printPieces(chunked(`[${'1'.repeat(2 ** 20 + 1)}]`))).toThrow(JsonNumberLimitError);
    expect(() => printPieces([Buffer.from('[t'), Buffer.from('rrrr'), Buffer.from('rrrr')])).toThrow(/Unexpected token "trrrrr" at position 1/);
  });

  it('colours keys, strings, numbers and literals, and nothing else changes', () => {
    const text = '{"name":"Ada","age":36,"admin":true,"tags":["a",null],"nested":{"x":-1.5e3}}';
    const coloured = prettyJsonText(text, { colors: palette(true) });
    expect(coloured).toContain('\u001b[34m"name"\u001b[0m: \u001b[32m"Ada"\u001b[0m');
    expect(coloured).toContain('\u001b[33m36\u001b[0m');
    expect(coloured).toContain('\u001b[35mtrue\u001b[0m');
    expect(coloured).toContain('\u001b[33m-1.5e3\u001b[0m'); // as written
    expect(stripAnsi(coloured)).toBe(reference(text));
    expect(prettyJsonText(text, { colors: palette(false) })).toBe(reference(text));
  });

  it('streams: output leaves before the input has ended', () => {
    const out: Buffer[] = [];
    const printer = new JsonPrettyPrinter((chunk) => out.push(chunk));
    printer.push(Buffer.from('['));
    for (let i = 0; i < 20_000; i++) printer.push(Buffer.from(`${i === 0 ? '' : ','}{"id":${i},"name":"item ${i}"}`));
    expect(out.length).toBeGreaterThan(0);
    printer.push(Buffer.from(']'));
    printer.end();
  });
});

describe('JsonPrettyPrinter: invalid input', () => {
  const invalid = ['', '   ', '{', '[1,]', '{"a":1,}', '{"a" 1}', '{"a":}', '{1:2}', "{'a':1}", '01', '1.', '.5', '-', '+1', '1e', '0x10', 'NaN', 'Infinity', 'tru', 'nulls', 'True', '"\\x"', '"\\u12g4"', '"a\u0001"', '"unterminated', '[1 2]', '{} {}', '{"a":1]', '[}', '"\\', '[1,2', '/* c */ 1'];
  for (const text of invalid) {
    it(`rejects ${JSON.stringify(text)} like JSON.parse does`, () => {
      expect(() => JSON.parse(text)).toThrow();
      expect(() => prettyJsonText(text)).toThrow(JsonSyntaxError);
    });
  }

  it('names the position of the problem', () => {
    expect(() => prettyJsonText('{"a": [1, 2,, 3]}')).toThrow(/Unexpected token "," at position 12/);
  });

  it('rejects bytes that are not UTF-8, also when a sequence is cut between chunks', () => {
    expect(() => printPieces([Buffer.from([0x22, 0xff, 0x22])])).toThrow(JsonEncodingError);
    expect(() => printPieces([Buffer.from([0x22, 0xc3]), Buffer.from([0x28, 0x22])])).toThrow(JsonEncodingError);
    expect(() => printPieces([Buffer.from([0x22, 0xe2, 0x82])])).toThrow(JsonEncodingError);
    expect(printPieces([Buffer.from([0x22, 0xe2]), Buffer.from([0x82]), Buffer.from([0xac, 0x22])])).toBe('"€"');
  });
});

describe('JsonBodyPrinter: what the render stage prints', () => {
  function render(pieces: Array<string | Buffer>): { out: string; warnings: string[]; writes: number } {
    const chunks: Buffer[] = [];
    const warnings: string[] = [];
    const printer = new JsonBodyPrinter({ write: (data) => chunks.push(Buffer.from(data)) }, { colors: palette(false), warn: (m) => warnings.push(m), holdLimit: 512 * 2 ** 20 });
    for (const piece of pieces) printer.push(Buffer.from(piece));
    printer.end();
    return { out: Buffer.concat(chunks).toString('utf8'), warnings, writes: chunks.length };
  }

  it('prints a small body pretty, newline included, in one write', () => {
    expect(render(['{"a":', '[1,2]}'])).toEqual({ out: `${reference('{"a":[1,2]}')}\n`, warnings: [], writes: 1 });
  });

  // Small plain bodies take JSON.parse + JSON.stringify (json-body.ts); it must print what the streaming printer does.
  it('prints a small body exactly as the streaming printer does, however it is cut', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 4 }), fc.array(fc.nat(), { maxLength: 4 }), (text, cuts) => {
        const bytes = Buffer.from(text);
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const pieces = [0, ...at].map((start, i) => bytes.subarray(start, at[i] ?? bytes.length));
        expect(smallJsonText(bytes)).toBe(printPieces(pieces));
        expect(render(pieces).out).toBe(`${printPieces(pieces)}\n`);
      }),
      { numRuns: 500 },
    );
  });

  it('prints nothing for an empty body', () => {
    expect(render([])).toEqual({ out: '', warnings: [], writes: 0 });
  });

  it('shows a body that is not JSON as text, with a warning', () => {
    const { out, warnings } = render(['<html>oops', '</html>']);
    expect(out).toBe('<html>oops</html>\n');
    expect(warnings).toEqual([expect.stringMatching(/^response says JSON but the body is not valid JSON \(Unexpected token "<" at position 0\); showing it as text$/)]);
  });

  it('shows a body of only whitespace as text, saying it is empty', () => {
    expect(render([' \n'])).toEqual({ out: ' \n', warnings: ['response says JSON but the body is empty; showing it as text'], writes: 1 });
  });

  it('shows a body that is not UTF-8 as text with U+FFFD', () => {
    const { out, warnings } = render([Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])]);
    expect(out).toBe('{"a":"\uFFFD"}\n');
    expect(warnings).toEqual(['response says JSON but the body is not valid UTF-8; showing it as text']);
  });

  it('past the validation window, prints what was valid, then the rest as received', () => {
    const items = Array.from({ length: 40_000 }, (_, i) => `{"id":${i},"name":"item ${i}"}`).join(',');
    expect(items.length).toBeGreaterThan(VALIDATION_WINDOW);
    const { out, warnings } = render([`[${items}`, ',oops]']);
    expect(warnings).toEqual([expect.stringMatching(/^response says JSON but the body is not valid JSON \(Unexpected token "oops" at position \d+\); the rest of it is shown as text$/)]);
    expect(out.startsWith('[\n  {\n    "id": 0,\n    "name": "item 0"\n  },')).toBe(true);
    expect(out.endsWith('\noops]\n')).toBe(true);
  });
});

describe('constant memory on a generated 24 MiB document', () => {
  /** ~12 s here for both probes; CPU-bound, so several times that on a busy machine. */
  const PROBE_TIMEOUT_MS = 170_000;
  const probe = async (mib: number, mode?: 'reference'): Promise<{ sha256: string; bytes: number; maxRssMb: number; retainedMb?: number; maxRetainedMb?: number }> => {
    const args = ['--expose-gc', join(ROOT, 'test', 'json-stream-pretty.probe.js'), String(mib), ...(mode ? [mode] : [])];
    // Killed at the test's time-out, so that a probe never outlives it (and the jest worker).
    const { stdout } = await run(process.execPath, args, { cwd: ROOT, maxBuffer: 1 << 20, timeout: PROBE_TIMEOUT_MS });
    return JSON.parse(stdout);
  };

  it('keeps the memory it holds flat while printing 24 MiB, and prints exactly what JSON.stringify does', async () => {
    const [streamed, expected] = await Promise.all([probe(24), probe(24, 'reference')]);
    expect(streamed.sha256).toBe(expected.sha256);
    expect(streamed.bytes).toBeGreaterThan(36 * 2 ** 20);
    // Reachable memory after a full GC, sampled every 4 MiB of input: flat, not growing with the document.
    expect((streamed.maxRetainedMb as number) - (streamed.retainedMb as number)).toBeLessThan(8);
    // The whole process, for scale: JSON.parse + JSON.stringify of the same document needs several times more.
    expect(streamed.maxRssMb).toBeLessThan(160);
    expect(expected.maxRssMb).toBeGreaterThan(3 * (streamed.maxRssMb - 40));
  }, PROBE_TIMEOUT_MS + 10_000);
});

describe('reqflow run: JSON responses are pretty-printed as they stream', () => {
  let server: Server;
  let base = '';
  const big = JSON.stringify({ items: Array.from({ length: 50_000 }, (_, i) => ({ id: i, name: `user ${i}`, score: i / 8, tags: ['a', 'b'], nested: { ok: i % 2 === 0 } })) });
  const odd = '{"b":1,"2":2,"1":3,"b":4,"n":[1.0,1e2,-0,"\\u00e9\\/"]}';

  beforeAll(async () => {
    server = createServer((req, res) => {
      const body = req.url === '/big' ? big : req.url === '/odd' ? odd : req.url === '/html' ? '<html>' : '{}';
      res.writeHead(200, { 'Content-Type': 'application/json' });
      // The big body goes out in small pieces, so the printer really streams it.
      if (req.url === '/big') {
        let at = 0;
        const next = (): void => {
          if (at >= body.length) return void res.end();
          res.write(body.slice(at, (at += 16_384)), next);
        };
        next();
      } else {
        res.end(body);
      }
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** `reqflow run` of one GET to `path` on the test server, with its own state folder. */
  async function runGet(path: string, ...flags: string[]): Promise<Awaited<ReturnType<typeof runCli>>> {
    return runGetWith({}, path, ...flags);
  }

  async function runGetWith(env: Record<string, string>, path: string, ...flags: string[]): Promise<Awaited<ReturnType<typeof runCli>>> {
    const dir = tempDir();
    try {
      const file = dir.write('get.http', `GET ${base}${path}\n`);
      return await runCli(['run', file, ...flags], { env: { REQFLOW_STATE_DIR: join(dir.dir, 'state'), ...env } });
    } finally {
      dir.cleanup();
    }
  }

  it('prints a large body exactly as JSON.stringify(…, null, 2) would', async () => {
    const result = await runGet('/big');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${reference(big)}\n`);
  });

  it('streams rather than buffers: --max-size (what may be held in memory) does not limit it', async () => {
    expect(big.length).toBeGreaterThan(1_000_000);
    const result = await runGet('/big', '--max-size', '100000');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${reference(big)}\n`);
  });

  it('normalises numbers, escapes, index keys and duplicates like JSON.parse', async () => {
    const result = await runGet('/odd');
    expect(result.stdout).toBe(`${reference(odd)}\n`);
    expect(result.stdout).toContain('"1": 3,\n  "2": 2,\n  "b": 4');
  });

  // Colours skip the small-body shortcut: the streaming printer loads at the first chunk.
  it('colours a body through the streaming printer, the same text underneath', async () => {
    for (const [path, body] of [['/small', '{}'], ['/big', big]] as const) {
      const result = await runGetWith({ FORCE_COLOR: '1' }, path);
      expect(result.code).toBe(0);
      if (path === '/big') expect(result.stdout).toContain('\u001b[');
      expect(result.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toBe(`${reference(body)}\n`);
    }
  });

  it('falls back to text with a warning when the body is not JSON', async () => {
    const result = await runGet('/html');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('<html>\n');
    expect(result.stderr).toMatch(/reqflow: warning: response says JSON but the body is not valid JSON \(Unexpected token "<" at position 0\); showing it as text/);
  });
});
