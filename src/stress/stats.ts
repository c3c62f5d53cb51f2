/**
 * The counters of a stress run: an HDR histogram of latencies (microseconds), responses by
 * status, failures by kind, each check's passes and failures. Nothing per request is kept, so
 * memory stays the same however long the run.
 */
import type { Histogram } from 'hdr-histogram-js';
import { errorKind, type CountedOutcome, type ErrorKind } from './error-kind.js';
import type { CheckCount, LatencyFigures, StressSummary } from './summary.js';

/** One hour in microseconds: slower answers are counted at that. */
const HIGHEST_US = 3_600_000_000;
/** A check whose name changes per request (a `client.test` named after a value) must not grow the table without end. */
const MAX_CHECKS = 200;

/** The histogram, from the package loaded only by this command (plain JavaScript: its WebAssembly mode is not needed here). */
export async function latencyHistogram(): Promise<Histogram> {
  const hdr = await import('hdr-histogram-js');
  return hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: HIGHEST_US, numberOfSignificantValueDigits: 3, autoResize: false, useWebAssembly: false });
}

const ms = (us: number): number => Math.round(us) / 1000;

export class StressStats {
  private count = 0;
  private errors = 0;
  private readonly statuses = new Map<number, number>();
  private readonly kinds = new Map<ErrorKind, number>();
  private readonly checks = new Map<string, CheckCount>();
  private lastEnd: number;

  /** `startedAt`: performance.now() when the first request went out. */
  constructor(
    private readonly histogram: Histogram,
    private readonly startedAt: number,
  ) {
    this.lastEnd = startedAt;
  }

  /** One request's end: `latencyMs` when it got a response. */
  record(outcome: CountedOutcome, latencyMs: number | undefined): void {
    this.count++;
    this.lastEnd = performance.now();
    if (latencyMs !== undefined) this.histogram.recordValue(Math.min(HIGHEST_US, Math.max(1, Math.round(latencyMs * 1000))));
    const status = outcome.response?.status;
    if (status !== undefined) this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    const kind = errorKind(outcome);
    if (kind) {
      this.errors++;
      this.kinds.set(kind, (this.kinds.get(kind) ?? 0) + 1);
    }
    for (const test of outcome.tests ?? []) {
      const key = `${test.line}\n${test.name}`;
      let counted = this.checks.get(key);
      if (!counted) {
        if (this.checks.size >= MAX_CHECKS) continue;
        counted = { name: test.name, line: test.line, passed: 0, failed: 0 };
        this.checks.set(key, counted);
      }
      if (test.passed) counted.passed++;
      else counted.failed++;
    }
  }

  /** What the live progress line shows. */
  progress(): { count: number; errors: number; rps: number; p95?: number } {
    const elapsed = (performance.now() - this.startedAt) / 1000;
    return { count: this.count, errors: this.errors, rps: elapsed > 0 ? this.count / elapsed : 0, ...(this.histogram.totalCount > 0 ? { p95: ms(this.histogram.getValueAtPercentile(95)) } : {}) };
  }

  /** The latency at any percentile, in ms (the thresholds ask for any). */
  percentile(p: number): number | undefined {
    // A bucket's highest value may pass the largest one recorded: a percentile is never above the max.
    return this.histogram.totalCount > 0 ? ms(Math.min(this.histogram.getValueAtPercentile(p), this.histogram.maxValue)) : undefined;
  }

  private latency(): LatencyFigures | undefined {
    const h = this.histogram;
    if (h.totalCount === 0) return undefined;
    const at = (p: number): number => this.percentile(p) as number;
    return { min: ms(h.minNonZeroValue), avg: ms(h.mean), p50: at(50), p90: at(90), p95: at(95), p99: at(99), max: ms(h.maxValue) };
  }

  summary(base: Pick<StressSummary, 'request' | 'settings' | 'interrupted' | 'sending'>): StressSummary {
    const elapsedMs = Math.max(0, this.lastEnd - this.startedAt);
    const latency = this.latency();
    return {
      ...base,
      count: this.count,
      elapsedMs: Math.round(elapsedMs),
      rps: elapsedMs > 0 ? Math.round((this.count / elapsedMs) * 1000 * 10) / 10 : 0,
      ...(latency ? { latency } : {}),
      statuses: Object.fromEntries([...this.statuses].sort(([a], [b]) => a - b).map(([status, n]) => [String(status), n])),
      errors: { total: this.errors, rate: this.count > 0 ? this.errors / this.count : 0, kinds: Object.fromEntries(this.kinds) },
      checks: [...this.checks.values()].sort((a, b) => a.line - b.line),
      thresholds: [],
      passed: true,
    };
  }
}
