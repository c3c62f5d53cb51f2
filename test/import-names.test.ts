/**
 * Unique request names in an import: a HAR of a browser session repeats one URL thousands of
 * times, and each repeat gets the next free number without counting from 2 again.
 */
import { expect, test } from '@jest/globals';
import { UniqueNames } from '../src/import/names.js';

test('repeats are numbered in order, skipping names already taken, whatever their case', () => {
  const names = new UniqueNames();
  expect(names.take('get-a-3')).toBe('get-a-3');
  expect(['get-a', 'GET-A', 'get-a', 'get-a', 'get-b', 'get-a'].map((base) => names.take(base))).toEqual(['get-a', 'GET-A-2', 'get-a-4', 'get-a-5', 'get-b', 'get-a-6']);
});

// 100,000 repeats: counting from 2 each time is 5·10⁹ look-ups (many minutes); the time-out, far above the ~0.1 s they take, is the only bound.
test('100,000 repeats of one name are all distinct and numbered 2 … 100,000', () => {
  const names = new UniqueNames();
  const taken = Array.from({ length: 100_000 }, () => names.take('get-a'));
  expect(new Set(taken).size).toBe(100_000);
  expect(taken.at(-1)).toBe('get-a-100000');
}, 60_000);
