import type { LineSource } from './line-source.js';

/** One match: its line and where it is in the line without colours. */
export interface Match {
  line: number;
  start: number;
  end: number;
}

/** Matches kept at most: `n` past the last kept one wraps to the first. */
const MAX_MATCHES = 100_000;

/**
 * Every match of `query` in the source, in order. Smart case: a query with no capital letter
 * matches any case. Lines are read one at a time, so a large body is never decoded whole.
 */
export function findMatches(source: LineSource, query: string, limit = MAX_MATCHES): { matches: Match[]; capped: boolean } {
  const matches: Match[] = [];
  if (query === '') return { matches, capped: false };
  const ignoreCase = query === query.toLowerCase();
  const needle = ignoreCase ? query.toLowerCase() : query;
  const count = source.count();
  for (let line = 0; line < count; line += 1) {
    const text = ignoreCase ? source.plain(line).toLowerCase() : source.plain(line);
    let from = text.indexOf(needle);
    while (from >= 0) {
      if (matches.length >= limit) return { matches, capped: true };
      matches.push({ line, start: from, end: from + needle.length });
      from = text.indexOf(needle, from + needle.length);
    }
  }
  return { matches, capped: false };
}
