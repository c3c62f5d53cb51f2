/**
 * What a stress run measured: the shape of `-o json` (docs/stress.md) and what the table and
 * the thresholds read. Counters and a histogram only: its size does not grow with the run.
 */
import type { ErrorKind } from './error-kind.js';

export interface LatencyFigures {
  min: number;
  avg: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
}

/** One `--threshold`'s verdict. */
export interface ThresholdResult {
  threshold: string;
  /** In the threshold's own terms: ms, a fraction, requests per second (null: nothing to measure). */
  actual: number | null;
  passed: boolean;
}

export interface CheckCount {
  name: string;
  line: number;
  passed: number;
  failed: number;
}

export interface StressSummary {
  request: { name: string; method: string; url: string };
  settings: { workers: number; rampUpMs: number; durationMs?: number; requests?: number; rate?: number };
  /** Requests that ended (a response or an error). */
  count: number;
  /** From the first request sent to the last one ended. */
  elapsedMs: number;
  /** Requests per second over `elapsedMs`. */
  rps: number;
  /** In milliseconds, over the requests that got a response (body included); absent when none did. */
  latency?: LatencyFigures;
  /** Responses by status code. */
  statuses: Record<string, number>;
  /** Requests that failed — by reqflow's rule: their checks failed, or (without checks) a status ≥ 400, or no response — by kind. */
  errors: { total: number; rate: number; kinds: Partial<Record<ErrorKind, number>> };
  /** Each check of the request, counted over the run. */
  checks: CheckCount[];
  thresholds: ThresholdResult[];
  /** Every threshold passed (true without thresholds). */
  passed: boolean;
  /** Stopped early by Ctrl-C. */
  interrupted: boolean;
  /**
   * How the requests were sent (docs/stress.md): `replayed`, the prepared request written again
   * on each worker's connection; `loop`, through the whole loop as `reqflow run` sends it, and
   * `loopReason`, why the replay was not used (or ended).
   */
  sending: { replayed: number; loop: number; loopReason?: string };
}
