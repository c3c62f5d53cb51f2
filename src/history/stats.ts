/**
 * Per-request figures over a history: how often each request (file + name) ran, how often it
 * failed, how long it took, and a sparkline of its latest durations.
 */
import type { HistorySummary } from './entry.js';

/** How many of the latest durations the sparkline shows. */
const SPARK_LENGTH = 20;
const BARS = '▁▂▃▄▅▆▇█';

export interface RequestStats {
  file: string;
  name: string;
  count: number;
  /** Responses ≥ 400 and requests that got no response. */
  errors: number;
  /** `errors / count`, from 0 to 1. */
  errorRate: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** The latest status; undefined when the latest request got no response. */
  lastStatus?: number;
  /** The latest durations, oldest first (at most {@link SPARK_LENGTH}). */
  recentMs: number[];
  sparkline: string;
}

/** The nearest-rank percentile of sorted values: the smallest value with at least `q` of them at or below it. */
function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

/** One bar per value, from ▁ (the least of them) to █ (the most); all alike: all ▁. */
function sparkline(values: readonly number[]): string {
  const low = Math.min(...values);
  const span = Math.max(...values) - low;
  return values.map((value) => BARS[span === 0 ? 0 : Math.round(((value - low) / span) * (BARS.length - 1))]).join('');
}

interface Tally {
  file: string;
  name: string;
  durations: number[];
  errors: number;
  last: HistorySummary;
}

/** Gathers entries in the order they were written; `result()` gives one line per request, in file and name order. */
export class StatsTally {
  private readonly tallies = new Map<string, Tally>();

  add(entry: HistorySummary): void {
    const key = `${entry.file}\0${entry.name}`;
    let tally = this.tallies.get(key);
    if (!tally) {
      tally = { file: entry.file, name: entry.name, durations: [], errors: 0, last: entry };
      this.tallies.set(key, tally);
    }
    tally.durations.push(entry.durationMs);
    if (entry.status === undefined || entry.status >= 400) tally.errors++;
    tally.last = entry;
  }

  result(): RequestStats[] {
    return [...this.tallies.values()]
      .sort((a, b) => (a.file === b.file ? a.last.line - b.last.line || a.name.localeCompare(b.name) : a.file < b.file ? -1 : 1))
      .map((tally) => {
        const sorted = [...tally.durations].sort((a, b) => a - b);
        const recentMs = tally.durations.slice(-SPARK_LENGTH);
        const stats: RequestStats = {
          file: tally.file,
          name: tally.name,
          count: sorted.length,
          errors: tally.errors,
          errorRate: tally.errors / sorted.length,
          p50Ms: percentile(sorted, 0.5),
          p95Ms: percentile(sorted, 0.95),
          maxMs: sorted.at(-1) ?? 0,
          recentMs,
          sparkline: sparkline(recentMs),
        };
        if (tally.last.status !== undefined) stats.lastStatus = tally.last.status;
        return stats;
      });
  }
}
