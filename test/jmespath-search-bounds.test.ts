/**
 * Every JMESPath search is bounded, whatever the size of the body: a search over a body under
 * 4 KiB ran on the main thread with no bound at all, and an expression can repeat its input —
 * `[@,@]|[@,@]|…` doubles it at each `|` — so over a 50-byte body 40 `|` made `to_string`, `[]`
 * or `==` run for hours (1.6 GB in 30 s for `[]`), and a nested filter over 1,000 numbers ran
 * 10^9 comparisons. Now a value a search makes may be at most 1 Mi characters and values (four
 * times a larger body), and its steps stop at the time limit. The library's functions that make
 * any length in one step are checked first, and its `trim` (a quadratic regular expression) is
 * a scan: the same results as the library's on the inputs it answers quickly. Each search here
 * is bounded by the test's own time-out, so a regression fails rather than hangs.
 */
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { BoundedRunner } from '../src/core/bounded-run.js';
import { JsonSearch } from '../src/core/jmespath-search.js';
import type { JMESPath } from '../src/core/jmespath-library.js';

const jmespath = createRequire(import.meta.url)('@jmespath-community/jmespath') as JMESPath;
const SMALL = { name: 'ada', n: -3, items: [1, 2, 3] };
const NUMBERS = { items: Array.from({ length: 1000 }, (_, index) => index) };
const search = (expression: string, document: unknown = SMALL, limitMs = 2000): unknown => new JsonSearch(jmespath, new BoundedRunner(limitMs)).search(expression, document);
/** `|` `times` times over `step`: each doubles what it is given. */
const doubled = (times: number, step = '[@,@]'): string => `${`${step}|`.repeat(times)}@`;
const TOO_LARGE = /JMESPath filter .* failed: (a value it makes grows|the values it makes add up) past [\d,]+ characters and values/;

describe('a search that repeats its input fails, exit 1, as soon as it makes more than it may', () => {
  test.each([
    ['the doubled value itself (the output would write it out)', doubled(40)],
    ['to_string of it', `to_string(${doubled(40)})`],
    ['flattening it', `${doubled(40)} | @${'[]'.repeat(40)}`],
    ['comparing two of them', `(${doubled(40)}) == (${doubled(40)})`],
    ['a let binding doubling it', `let $x = @ in ${doubled(40)}`],
    ['the whole body twice for each of its 1,000 items', 'items[*].[$, $]', NUMBERS],
    ['pad_right to 500 million', 'pad_right(name, `500000000`)'],
    ['join with a long glue', `join(to_string(${doubled(12)}), [${Array(20).fill('name').join(', ')}])`],
    ['replace by a long text', `replace(to_string(${doubled(12)}), \`"a"\`, to_string(${doubled(12)}))`],
  ] as Array<[string, string, unknown?]>)('%s', (_what, expression, document = SMALL) => {
    let failure: unknown;
    try {
      search(expression, document);
    } catch (error) {
      failure = error;
    }
    expect(failure).toMatchObject({ exitCode: 1, message: expect.stringMatching(TOO_LARGE) });
  });

  test('a value nested deeper than the output goes (`[@]|[@]|…`) fails saying so', () => {
    expect(() => search(doubled(1500, '[@]'))).toThrow(/failed: (its result is nested more than 1000 levels deep|Maximum call stack size exceeded)/);
  });
});

describe('a search that goes over the body again and again stops at the time limit', () => {
  test('three nested filters over 1,000 numbers (10^9 comparisons; 3.9 kB of body)', () => {
    expect(JSON.stringify(NUMBERS).length).toBeLessThan(4096);
    expect(() => search('items[?length($.items[?length($.items[?@ == `-1`]) > `0`]) > `0`]', NUMBERS, 300)).toThrow(/failed: ran past its time limit of 300 ms/);
  });

  test('replace with a count of 10^9 that keeps finding what it replaces', () => {
    expect(() => search('replace(name, `"a"`, `"aa"`, `1000000000`)', SMALL, 300)).toThrow(/failed: ran past its time limit of 300 ms|grows past/);
  });
});

describe('what a search may do, it still does', () => {
  test('ordinary filters, a let, the bounded functions', () => {
    expect(search('{name: name, count: length(items), doubled: items[*].[@, @]}')).toEqual({ name: 'ada', count: 3, doubled: [[1, 1], [2, 2], [3, 3]] });
    expect(search('let $x = name in [$x, $x]')).toEqual(['ada', 'ada']);
    expect(search(doubled(8))).toHaveLength(2); // 256 copies of the body: well within the limit
    expect(search('pad_left(name, `6`, `"*"`)')).toBe('***ada');
    expect(search('pad_right(`""`, `1000000000`)')).toBe(''); // the library pads nothing to nothing
    expect(search('join(`", "`, [name, name])')).toBe('ada, ada');
    expect(search('replace(`"a-b-c"`, `"-"`, `"+"`)')).toBe('a+b+c');
    expect(search('replace(name, `"a"`, `"b"`, `1000000000`)')).toBe('bdb');
    expect(search('length(trim(`"  a  "`))')).toBe(1);
  });

  test('trim over 200,000 spaces between two letters answers (the library\'s took ~40 s)', () => {
    const spaces = { name: ` a${' '.repeat(200_000)}b ` };
    expect(search('length(trim(name))', spaces)).toBe(200_002);
    expect(search('length(trim(trim_right(trim_right(name), `"b"`)))', spaces)).toBe(1);
  });

  test('trim, trim_left and trim_right give what the library gives', () => {
    const text = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\u0085', '\u00a0', '\u2028', 'a', 'b', '-', ']', '\\', '^'), maxLength: 12 });
    const chars = fc.option(fc.string({ unit: fc.constantFrom('a', '-', ']', '\\', '^', ' ', '\n'), maxLength: 3 }), { nil: undefined });
    fc.assert(
      fc.property(text, chars, fc.constantFrom('trim', 'trim_left', 'trim_right'), (subject, set, name) => {
        const expression = set === undefined ? `${name}(s)` : `${name}(s, c)`;
        expect(search(expression, { s: subject, c: set })).toBe(jmespath.search({ s: subject, c: set ?? null }, expression));
      }),
    );
  });

  test('replace with a count gives what the library gives', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', '$', '&'), maxLength: 8 });
    fc.assert(
      fc.property(word, word, word, fc.integer({ min: 0, max: 6 }), (s, old, by, count) => {
        const document = { s, old, by, count };
        let mine: unknown;
        let theirs: unknown;
        try {
          theirs = jmespath.search(document, 'replace(s, old, by, count)');
        } catch (error) {
          theirs = (error as Error).message;
        }
        try {
          mine = search('replace(s, old, by, count)', document);
        } catch (error) {
          mine = (error as Error).message.replace(/^JMESPath filter ".*" failed: /, '');
        }
        expect(mine).toEqual(theirs);
      }),
    );
  });
});
