/**
 * Properties of the streaming JSON pretty-printer (src/core/render/json-stream-pretty.ts):
 * for any JSON text, however its UTF-8 bytes are split into chunks (inside characters too), the
 * output is exactly `JSON.stringify(JSON.parse(text), null, 2)` with numbers as written; for any text that is not JSON it throws its
 * JsonSyntaxError, and for bytes that are not UTF-8 its JsonEncodingError (and nothing else).
 */
import { parseJsonExact, stringifyJson } from '../src/core/json-exact.js';
import { visibleJson } from '../src/report/render/visible.js';
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { JsonEncodingError, JsonPrettyPrinter, JsonSyntaxError, prettyJsonText } from '../src/report/render/json-stream-pretty.js';

/** Feeds the UTF-8 bytes of `text` in pieces cut at the given byte positions (inside characters too). */
function prettyInChunks(text: string | Buffer, cuts: number[]): string {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const parts: Buffer[] = [];
  const printer = new JsonPrettyPrinter((part) => parts.push(part));
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const point of points) {
    printer.push(bytes.subarray(from, point));
    from = point;
  }
  printer.push(bytes.subarray(from));
  printer.end();
  return Buffer.concat(parts).toString('utf8');
}

/** What the text means once sent as UTF-8 (lone surrogates cannot be, and become U+FFFD). */
function reference(text: string): string {
  const { value, lossless } = parseJsonExact(Buffer.from(text, 'utf8').toString('utf8'));
  return visibleJson(stringifyJson(value, lossless, 2));
}

// JSON texts as servers write them: compact, indented, with odd whitespace, escapes and numbers.
const whitespace = fc.constantFrom('', ' ', '\n', '\t', '\r\n  ');
const spaced = (json: string, ws: string): string => json.replace(/([,:[\]{}])/g, `${ws}$1${ws}`);
const jsonText = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.json({ maxDepth: 3, stringUnit: 'binary' }),
  fc.tuple(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(0, 2, '\t')).map(([value, indent]) => JSON.stringify(value, null, indent)),
  // Escapes, surrogates (paired and lone), number forms and keys that JSON.parse reorders or merges.
  fc.tuple(fc.constantFrom('"\\u00e9\\/\\b\\f\\n\\r\\t\\"\\\\"', '"\\ud83d\\ude00"', '"\\ud800x"', '"\\udc00"', '"😀é"', '1.0', '1e2', '-0', '1E-7', '123456789012345678901', '1e400', '0.1', 'true', 'null'), whitespace).map(([v, ws]) => `${ws}${v}${ws}`),
  fc.array(fc.tuple(fc.constantFrom('"b"', '"a"', '"10"', '"2"', '"0"', '"01"', '"-1"', '"4294967295"', '"\\u0061"'), fc.constantFrom('1', '"x"', '[]', '{}', '{"2":1,"a":2}')), { maxLength: 8 }).map((members) => `{${members.map(([k, v]) => `${k}:${v}`).join(',')}}`),
);

describe('streaming JSON pretty-printer', () => {
  test('equals JSON.stringify(JSON.parse(x), null, 2), whatever the chunking', () => {
    fc.assert(
      fc.property(jsonText, fc.constantFrom('', ' '), fc.array(fc.nat(), { maxLength: 6 }), (json, ws, cuts) => {
        // Spaces land inside strings too (changing their value): compare with what this text means.
        const text = spaced(json, ws);
        const expected = reference(text);
        expect(prettyJsonText(text)).toBe(expected);
        expect(prettyInChunks(text, cuts)).toBe(expected);
      }),
      { numRuns: 1500 },
    );
  });

  test('text that is not JSON throws a JsonSyntaxError, exactly when JSON.parse throws', () => {
    const mutated = fc.tuple(jsonText, fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', 'x', '\\', '\u0001', '{', '[', '-', '.', 'e'), fc.nat({ max: 3 })).map(([json, at, insert, remove]) => {
      const i = at % (json.length + 1);
      return json.slice(0, i) + insert + json.slice(i + remove);
    });
    fc.assert(
      fc.property(fc.oneof(mutated, fc.string({ maxLength: 30 })), fc.array(fc.nat(), { maxLength: 4 }), (text, cuts) => {
        let expected: string | undefined;
        try {
          expected = reference(text);
        } catch {
          expected = undefined;
        }
        if (expected === undefined) {
          expect(() => prettyInChunks(text, cuts)).toThrow(JsonSyntaxError);
        } else {
          expect(prettyInChunks(text, cuts)).toBe(expected);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('bytes that are not UTF-8 throw a JsonEncodingError, never a wrong output', () => {
    const badBytes = fc.constantFrom([0xff], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc0, 0xaf]);
    fc.assert(
      fc.property(jsonText.filter((j) => /"/.test(j)), badBytes, fc.nat(), fc.array(fc.nat(), { maxLength: 4 }), (json, bad, at, cuts) => {
        // Put the bad bytes inside the first string, where only the encoding can be wrong.
        const bytes = Buffer.from(json, 'utf8');
        const quote = bytes.indexOf(0x22);
        const broken = Buffer.concat([bytes.subarray(0, quote + 1), Buffer.from(bad), bytes.subarray(quote + 1)]);
        expect(() => prettyInChunks(broken, cuts.map((c) => c + at))).toThrow(JsonEncodingError);
      }),
      { numRuns: 500 },
    );
  });
});
