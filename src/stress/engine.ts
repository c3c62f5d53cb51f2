/**
 * The engine of a stress run, for `reqflow stress` and the TUI's `L`: what the request depends
 * on runs once, then the schedule sends it while the counters record each outcome; the summary
 * comes back (with the thresholds judged) and the caller shows it.
 *
 * How each request is sent — replayed, or through the whole loop (`runRequest`) — is
 * sending.ts's decision (docs/stress.md).
 */
import { displayUrl } from '../core/mask.js';
import type { RequestSpec } from '../core/model.js';
import { runRequest } from '../pipeline/loop.js';
import type { RequestContext } from '../pipeline/context.js';
import type { RunServices } from '../pipeline/create-context.js';
import type { RequestOutcome } from '../report/reporter.js';
import type { StressPlan } from './flags.js';
import { runSchedule } from './schedule.js';
import { Sending } from './sending.js';
import { StressStats, latencyHistogram } from './stats.js';
import type { StressSummary } from './summary.js';
import { judge } from './thresholds.js';

/**
 * How long requests still in flight at the end of `--duration` may take to end: past it they are
 * cancelled and left out, as Ctrl-C leaves them. A server that drips a byte at a time restarts
 * the idle time-out with each byte, and one that never answers holds a request for the whole
 * `--timeout`: without this a 10 s run could last for hours (k6 calls this `gracefulStop`).
 */
const GRACE_MS = 5000;

/** What the stress recorder (recorder.ts) hands on for each request of the run. */
export type OutcomeHandler = (outcome: RequestOutcome, latencyMs: number | undefined, ctx: RequestContext) => void;

/**
 * What the request depends on (`# @import`, `# @depends`, `# @ref`, a reference to another
 * request's response) runs once, before the clock starts: not once per worker at the same time.
 */
export async function runDependencies(services: RunServices, spec: RequestSpec, file: string): Promise<void> {
  const { chain } = services;
  if (!chain) return;
  for (const imported of spec.chain?.imports ?? []) await chain.importFile(imported.path, file);
  for (const dependency of spec.chain?.depends ?? []) await chain.depend(dependency.path, file, `${spec.source.file}:${dependency.line}`);
  for (const ref of spec.chain?.refs ?? []) if (!ref.force) await chain.ensure(ref.name, false);
  await chain.prepare(spec);
}

export interface StressRun {
  plan: Pick<StressPlan, 'workers' | 'rampUpMs' | 'durationMs' | 'requests' | 'rate' | 'thresholds'>;
  spec: RequestSpec;
  services: RunServices;
  file: string;
  signal: AbortSignal;
  /** Cancels what is in flight (aborts the services' signal): called `GRACE_MS` after the end of a `--duration` run that has not ended. */
  cancelInFlight?: () => void;
  /** Installs the handler the services' stress recorder calls for each outcome. */
  listen: (handler: OutcomeHandler) => void;
  /** Shows live progress from the counters; returns what stops it. */
  progress?: (stats: StressStats, startedAt: number) => () => void;
}

/** Runs the schedule and returns the summary; a run stopped by `signal` is marked interrupted. */
export async function runStressEngine(run: StressRun): Promise<StressSummary> {
  const { plan, spec, services, file, signal } = run;
  const histogram = await latencyHistogram();
  const startedAt = performance.now();
  const stats = new StressStats(histogram, startedAt);
  let sentUrl: string | undefined; // with its variables resolved, for the table
  const sending = new Sending(spec, services, stats, signal);
  run.listen((outcome, latency, ctx) => {
    if (signal.aborted && outcome.error) return; // cancelled: not a result
    sentUrl ??= outcome.sent?.url;
    stats.record(outcome, latency);
    sending.looped(ctx, outcome.response !== undefined && !outcome.error);
  });
  const stopProgress = run.progress?.(stats, startedAt) ?? (() => undefined);
  const loop = (): Promise<unknown> => runRequest(spec, file, services);
  let overran = false;
  const cancel = run.cancelInFlight;
  const grace =
    plan.durationMs !== undefined && cancel
      ? setTimeout(() => {
          overran = !signal.aborted;
          cancel();
        }, plan.durationMs + GRACE_MS)
      : undefined;
  try {
    await runSchedule(plan, (worker) => sending.send(worker, loop), signal, startedAt);
  } finally {
    clearTimeout(grace);
    stopProgress();
    sending.close();
  }
  if (overran) services.output.err(`reqflow: warning: requests still in flight ${GRACE_MS / 1000} s after the end of the run were cancelled and are left out of the figures`);
  const settings = { workers: plan.workers, rampUpMs: plan.rampUpMs, ...(plan.durationMs !== undefined ? { durationMs: plan.durationMs } : {}), ...(plan.requests !== undefined ? { requests: plan.requests } : {}), ...(plan.rate !== undefined ? { rate: plan.rate } : {}) };
  const request = { name: spec.name, method: spec.method, url: displayUrl(sentUrl ?? spec.url, (text) => services.secrets.scrub(text)) };
  const summary: StressSummary = stats.summary({ request, settings, interrupted: signal.aborted && !overran, sending: sending.figures() });
  summary.thresholds = judge(plan.thresholds, summary, (p) => stats.percentile(p));
  summary.passed = summary.thresholds.every((result) => result.passed);
  return summary;
}
