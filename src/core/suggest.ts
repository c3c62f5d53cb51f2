import { lazyBuiltin } from './lazy-builtin.js';

type Levenshtein = typeof import('fastest-levenshtein');

/** True when `b` is `a` with two neighbouring characters swapped (`hots` → `host`, `evn` → `env`). */
function swapped(a: string, b: string): boolean {
  if (a.length !== b.length || a.length < 2) return false;
  let first = -1;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (first !== -1) return i === first + 1 && a[first] === b[i] && a[i] === b[first] && a.slice(i + 1) === b.slice(i + 1);
    first = i;
  }
  return false;
}

/**
 * The candidate `word` most likely meant, for "did you mean" hints: the same name in another
 * case first (`Dev` → `dev`), else the nearest by edit distance, where a swap of two neighbours
 * counts as one typo. At most a third of the word may differ, so a short word only matches a
 * near twin (and `a` never matches `b`); undefined when nothing is that close.
 * fastest-levenshtein is required only here: only an error pays for it.
 */
export function closestName(word: string, candidates: Iterable<string>): string | undefined {
  const names = [...new Set(candidates)].filter((name) => name !== word);
  const lower = word.toLowerCase();
  const sameLetters = names.find((name) => name.toLowerCase() === lower);
  if (sameLetters !== undefined || names.length === 0) return sameLetters;
  const { distance } = lazyBuiltin<typeof import('node:module')>('node:module').createRequire(import.meta.url)('fastest-levenshtein') as Levenshtein;
  const limit = Math.min(Math.max(1, Math.floor(word.length / 3)), word.length - 1);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of names) {
    const candidate = name.toLowerCase();
    const d = swapped(lower, candidate) ? 1 : distance(lower, candidate);
    if (d <= limit && d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}
