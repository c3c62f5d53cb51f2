/**
 * A duration written on the command line — `500ms`, `10s`, `1.5m`, `2h` — in milliseconds.
 * A bare number takes `bareUnit`. Undefined when the text is not one (the caller names the flag).
 */
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 } as const;

export function parseDuration(text: string, bareUnit: keyof typeof UNIT_MS = 'ms'): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|min|m|h)?$/.exec(text.trim());
  if (!match) return undefined;
  return Math.round(Number(match[1]) * UNIT_MS[(match[2] ?? bareUnit) as keyof typeof UNIT_MS]);
}
