/**
 * Properties of the streaming JSON pretty-printer (src/core/render/json-stream-pretty.ts):
 * for any JSON text, however it is split into chunks, the output is exactly
 * `JSON.stringify(JSON.parse(text), null, 2)`; for any text that is not JSON it throws its
 * JsonSyntaxError (and nothing else).
 */
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { palette } from '../src/core/render/colors.js';
import { JsonPrettyPrinter, JsonSyntaxError, prettyJsonText } from '../src/core/render/json-stream-pretty.js';
import { printJsonBody } from '../src/core/render/json-stream-render.js';

/** Feeds `text` in pieces cut at the given positions. */
function prettyInChunks(text: string, cuts: number[]): string {
  const parts: string[] = [];
  const printer = new JsonPrettyPrinter((part) => parts.push(part));
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const point of points) {
    printer.push(text.slice(from, point));
    from = point;
  }
  printer.push(text.slice(from));
  printer.end();
  return parts.join('');
}

function reference(text: string): string {
  return JSON.stringify(JSON.parse(text), null, 2);
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

  test('a JSON body arriving in byte chunks (UTF-8 sequences split anywhere) prints the same, plus a newline', async () => {
    await fc.assert(
      fc.asyncProperty(jsonText, fc.array(fc.nat(), { maxLength: 6 }), async (json, cuts) => {
        const bytes = Buffer.from(json, 'utf8');
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        async function* chunks(): AsyncIterable<Uint8Array> {
          let from = 0;
          for (const point of [...points, bytes.length]) {
            yield bytes.subarray(from, point);
            from = point;
          }
        }
        const out: string[] = [];
        const warnings: string[] = [];
        await printJsonBody(chunks(), { write: (text) => void out.push(typeof text === 'string' ? text : Buffer.from(text).toString('utf8')) }, { colors: palette(false), warn: (m) => void warnings.push(m), holdLimit: 1 << 30 });
        // Lone surrogates cannot survive UTF-8; compare with what the bytes mean.
        expect(out.join('')).toBe(`${reference(bytes.toString('utf8'))}\n`);
        expect(warnings).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
