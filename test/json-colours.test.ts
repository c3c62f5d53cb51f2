/**
 * Colouring JSON on a terminal (`src/report/render/json-text.ts`): it never changes the text
 * underneath, and a text body that only starts like JSON — a server's — is coloured in linear
 * time, whatever quotes it holds.
 */
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { palette } from '../src/report/render/colors.js';
import { colorizeJson } from '../src/report/render/json-text.js';

const colours = palette(true);
// eslint-disable-next-line no-control-regex -- the SGR sequences the palette adds
const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

describe('colorizeJson', () => {
  test('any JSON value, pretty-printed: the same text underneath the colours, keys and strings coloured apart', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value, null, 2) ?? 'null';
        expect(plain(colorizeJson(text, colours))).toBe(text);
      }),
      { numRuns: 300 },
    );
    expect(colorizeJson('{\n  "a": "b"\n}', colours)).toBe(`{\n  ${colours.key('"a"')}: ${colours.string('"b"')}\n}`);
  });

  test('a text that only looks like JSON, with quotes that never close (1 MiB of `ull\\"\\`), in linear time, unchanged underneath', () => {
    // A string that had to close was tried again from every later quote: quadratic, 4 s at
    // 120 kB, so hours at 1 MiB. The bound is far from both.
    const text = `[${'ull\\"\\'.repeat(200_000)}ull\\0`;
    const started = Date.now();
    const coloured = colorizeJson(text, colours);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(plain(coloured)).toBe(text);
    const unclosed = `{"a": "never closed ${'x'.repeat(100)}`;
    expect(plain(colorizeJson(unclosed, colours))).toBe(unclosed);
  });
});
