/**
 * The compact table of a file's request names (src/pipeline/name-table.ts): what `--list`, `-n`
 * and the chain's references read, for 100,000 requests without a string object per name.
 */
import { describe, expect, test } from '@jest/globals';
import { NameTable } from '../src/pipeline/name-table.js';

describe('NameTable', () => {
  test('gives every name back, in order, across its chunks of 1,024 and the unjoined last one', () => {
    const names = Array.from({ length: 2_500 }, (_, i) => (i % 7 === 0 ? `request-${i + 1}` : `get ${i} é ☃`));
    const table = NameTable.of(names);
    expect(table.count).toBe(2_500);
    expect(Array.from({ length: table.count }, (_, i) => table.get(i))).toEqual(names);
  });

  test('finds the first position of a name, in any chunk; −1 for a name it does not hold', () => {
    const names = Array.from({ length: 3_000 }, (_, i) => `n${i % 1_500}`);
    names.push('', 'last');
    const table = NameTable.of(names);
    expect(table.indexOf('n0')).toBe(0);
    expect(table.indexOf('n1499')).toBe(1_499); // again at 2,999: the first one counts
    expect(table.indexOf('last')).toBe(3_001);
    expect(table.indexOf('')).toBe(3_000);
    for (const missing of ['n', 'n1500', 'n14999', 'las', 'lastt', 'N0']) expect(table.indexOf(missing)).toBe(-1);
  });

  test('a name added after a look-up is found by the next one', () => {
    const table = NameTable.of(['a', 'b']);
    expect(table.indexOf('c')).toBe(-1);
    table.add('c');
    expect(table.indexOf('c')).toBe(2);
    expect(table.get(2)).toBe('c');
  });
});
