/**
 * httpyac's `# @ratelimit` value, `[slot NAME] [minIdleTime MS] [max N] [expire MS]` in that
 * order, `:` after a word allowed, words in any case (its `rateLimitMetaDataHandler.ts` pattern;
 * there `max` must be written, else the line is ignored — here it may be left out).
 */
export const RATE_LIMIT = /^\s*(?:slot:?\s*(?<slot>\S+))?\s*(?:minIdleTime:?\s*(?<minIdleTime>\d*))?\s*(?:max:?\s*(?<max>\d*))?\s*(?:expire:?\s*(?<expire>\d*))?\s*$/i;

/** Why a `# @ratelimit` value cannot be honoured, or undefined. Checked as the file is read. */
export function rateLimitProblem(value: string): string | undefined {
  const groups = RATE_LIMIT.exec(value)?.groups;
  if (!groups) return 'expects [slot NAME] [minIdleTime MS] [max N expire MS], in that order';
  const [idle, max, expire] = [groups.minIdleTime, groups.max, groups.expire].map((n) => Number(n || 0)) as [number, number, number];
  // Past 2^31 - 1 ms a Node timer fires at once.
  if (Math.max(idle, max, expire) > 2 ** 31 - 1) return 'a number is past 2147483647';
  if (idle === 0 && max === 0) return 'sets no limit: give minIdleTime or max';
  // httpyac counts `max` within `expire`; without one it loops for ever (max 1) or limits nothing.
  if (max > 0 && expire === 0) return 'max counts the requests within expire ms: give expire too';
  return undefined;
}
