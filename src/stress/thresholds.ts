/**
 * `--threshold 'p95<300ms'`: parsed once where the flag enters (a malformed one is exit 2,
 * named), then judged against the run's summary.
 */
import { UsageError } from '../core/errors/index.js';
import type { StressSummary, ThresholdResult } from './summary.js';

export type ThresholdMetric = { kind: 'latency'; stat: 'avg' | 'max'; percentile?: undefined } | { kind: 'latency'; stat: 'percentile'; percentile: number } | { kind: 'error_rate' } | { kind: 'rps' };

export type Operator = '<' | '<=' | '>' | '>=';

export interface Threshold {
  /** As written, for the report. */
  text: string;
  metric: ThresholdMetric;
  operator: Operator;
  /** Milliseconds for latencies, a fraction (0..1) for the error rate, requests per second for rps. */
  value: number;
}

const SHAPE = /^\s*([a-z_]+[0-9.]*)\s*(<=|>=|<|>)\s*(\d+(?:\.\d+)?)\s*([a-z%/]*)\s*$/i;
const KNOWN = 'p50…p99 (any percentile), avg, max, error_rate (or errors), rps';

function metricOf(name: string, fail: (why: string) => never): ThresholdMetric {
  const lower = name.toLowerCase();
  const percentile = /^p(\d{1,2}(?:\.\d+)?)$/.exec(lower);
  if (percentile) {
    const value = Number(percentile[1]);
    if (!(value > 0 && value < 100)) fail(`percentile ${value} is not between 0 and 100`);
    return { kind: 'latency', stat: 'percentile', percentile: value };
  }
  if (lower === 'avg' || lower === 'max') return { kind: 'latency', stat: lower };
  if (lower === 'error_rate' || lower === 'errors') return { kind: 'error_rate' };
  if (lower === 'rps') return { kind: 'rps' };
  return fail(`unknown metric "${name}" (known: ${KNOWN})`);
}

function valueOf(metric: ThresholdMetric, amount: number, unit: string, fail: (why: string) => never): number {
  const lower = unit.toLowerCase();
  switch (metric.kind) {
    case 'latency':
      if (lower === '' || lower === 'ms') return amount;
      if (lower === 's') return amount * 1000;
      return fail(`a latency is in ms or s, not "${unit}"`);
    case 'error_rate':
      if (lower === '%') return amount / 100;
      if (lower === '' && amount <= 1) return amount;
      return fail(lower === '' ? 'an error rate is a percentage (1%) or a fraction from 0 to 1' : `an error rate is in %, not "${unit}"`);
    case 'rps':
      if (lower === '' || lower === '/s') return amount;
      return fail(`rps is a number of requests per second, not "${unit}"`);
  }
}

/** One `--threshold` value; a malformed one is a usage error naming it. */
export function parseThreshold(text: string): Threshold {
  const fail = (why: string): never => {
    throw new UsageError(`--threshold "${text.slice(0, 60)}": ${why}`, { hint: `write METRIC OP VALUE, such as 'p95<300ms', 'error_rate<1%' or 'rps>=100'; metrics: ${KNOWN}` });
  };
  const match = SHAPE.exec(text);
  if (!match) return fail('not METRIC OP VALUE');
  const metric = metricOf(match[1] as string, fail);
  return { text: text.trim(), metric, operator: match[2] as Operator, value: valueOf(metric, Number(match[3]), match[4] as string, fail) };
}

/** The run's figure a threshold is about: ms, a fraction, or requests per second; undefined when nothing was measured. */
function actualOf(threshold: Threshold, summary: StressSummary, percentile: (p: number) => number | undefined): number | undefined {
  const { metric } = threshold;
  if (metric.kind === 'error_rate') return summary.count > 0 ? summary.errors.rate : undefined;
  if (metric.kind === 'rps') return summary.rps;
  if (!summary.latency) return undefined;
  if (metric.stat === 'percentile') return percentile(metric.percentile);
  return summary.latency[metric.stat];
}

const COMPARE: Record<Operator, (a: number, b: number) => boolean> = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
};

/** `percentile(95)`: the latency histogram's value in ms (any percentile, not only those the summary lists). */
export function judge(thresholds: readonly Threshold[], summary: StressSummary, percentile: (p: number) => number | undefined): ThresholdResult[] {
  return thresholds.map((threshold) => {
    const actual = actualOf(threshold, summary, percentile);
    return { threshold: threshold.text, actual: actual ?? null, passed: actual !== undefined && COMPARE[threshold.operator](actual, threshold.value) };
  });
}
