/**
 * The schedule and thresholds of a stress run as k6 `options`: workers become VUs, ramp-up and
 * duration become stages, `--rate` an arrival-rate executor, thresholds k6 thresholds.
 */
import type { StressPlan } from '../flags.js';
import type { Threshold } from '../thresholds.js';

const k6Duration = (ms: number): string => `${Math.max(1, Math.round(ms))}ms`;

/** k6 wants a whole number of iterations per time unit. */
function perUnit(rate: number): { rate: number; timeUnit: string } {
  return Number.isInteger(rate) ? { rate, timeUnit: '1s' } : { rate: Math.round(rate * 1000), timeUnit: '1000s' };
}

export interface K6Scenario {
  scenario: Record<string, unknown>;
  /** What the scenario leaves out, for a comment. */
  notes: string[];
}

export function k6Scenario(plan: StressPlan): K6Scenario {
  const notes: string[] = [];
  const vus = { preAllocatedVUs: plan.workers, maxVUs: plan.workers };
  if (plan.rate !== undefined) {
    const totalMs = plan.durationMs ?? Math.ceil(((plan.requests ?? 0) / plan.rate) * 1000);
    if (plan.requests !== undefined) notes.push(`--requests ${plan.requests} at --rate ${plan.rate}: run for ${k6Duration(totalMs)} instead (k6's arrival-rate executors end by time)`);
    const { rate, timeUnit } = perUnit(plan.rate);
    if (plan.rampUpMs > 0) {
      return { scenario: { executor: 'ramping-arrival-rate', startRate: 0, timeUnit, ...vus, stages: [{ target: rate, duration: k6Duration(plan.rampUpMs) }, { target: rate, duration: k6Duration(totalMs - plan.rampUpMs) }] }, notes };
    }
    return { scenario: { executor: 'constant-arrival-rate', rate, timeUnit, duration: k6Duration(totalMs), ...vus }, notes };
  }
  if (plan.requests !== undefined) {
    if (plan.rampUpMs > 0) notes.push(`--ramp-up is left out: k6's shared-iterations executor starts every VU at once`);
    return { scenario: { executor: 'shared-iterations', vus: plan.workers, iterations: plan.requests, maxDuration: '30m' }, notes };
  }
  const durationMs = plan.durationMs as number;
  if (plan.rampUpMs > 0) {
    return { scenario: { executor: 'ramping-vus', startVUs: 0, stages: [{ duration: k6Duration(plan.rampUpMs), target: plan.workers }, { duration: k6Duration(durationMs - plan.rampUpMs), target: plan.workers }], gracefulRampDown: '0s' }, notes };
  }
  return { scenario: { executor: 'constant-vus', vus: plan.workers, duration: k6Duration(durationMs) }, notes };
}

/** `p95<300ms` → `http_req_duration: ['p(95)<300']`; `error_rate<1%` → `http_req_failed: ['rate<0.01']`; `rps>=100` → `http_reqs: ['rate>=100']`. */
export function k6Thresholds(thresholds: readonly Threshold[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const add = (metric: string, expression: string): void => void (out[metric] ??= []).push(expression);
  for (const { metric, operator, value } of thresholds) {
    if (metric.kind === 'error_rate') add('http_req_failed', `rate${operator}${value}`);
    else if (metric.kind === 'rps') add('http_reqs', `rate${operator}${value}`);
    else add('http_req_duration', `${metric.stat === 'percentile' ? `p(${metric.percentile})` : metric.stat}${operator}${value}`);
  }
  return out;
}
