/**
 * The engine of a stress run, for `reqflow stress` and the TUI's `L`: what the request depends
 * on runs once, then the schedule sends it while the counters record each outcome; the summary
 * comes back (with the thresholds judged) and the caller shows it.
 *
 * How each request is sent (docs/stress.md): through the whole loop (`runRequest`) until one
 * gets a response; from its context the engine decides whether the request may be replayed
 * (`replay/full-path-reason.ts`) and prepares it (`replay/prepare.ts`); from then on the
 * workers write the prepared bytes on their own connections (`replay/replay.ts`) — else every
 * request goes through the loop, as `reqflow run` sends it.
 */
import { displayUrl } from '../core/mask.js';
import type { RequestSpec } from '../core/model.js';
import { runRequest } from '../pipeline/loop.js';
import type { RequestContext } from '../pipeline/context.js';
import type { RunServices } from '../pipeline/create-context.js';
import type { RequestOutcome } from '../report/reporter.js';
import type { StressPlan } from './flags.js';
import { runSchedule } from './schedule.js';
import type { Replay } from './replay/replay.js';
import { StressStats, latencyHistogram } from './stats.js';
import type { StressSummary } from './summary.js';
import { judge } from './thresholds.js';

/** What the stress recorder (recorder.ts) hands on for each request of the run. */
export type OutcomeHandler = (outcome: RequestOutcome, latencyMs: number | undefined, ctx: RequestContext) => void;

/** How the run sends its requests: the loop until a response decides, then the replay or the loop for good. */
class Sending {
  replay: Replay | undefined;
  decision: Promise<void> | undefined;
  loopReason: string | undefined;
  loop = 0;

  /** Decides once, from the first request that got a response. */
  decide(spec: RequestSpec, ctx: RequestContext, services: RunServices, stats: StressStats, signal: AbortSignal): void {
    this.decision ??= (async () => {
      const { fullPathReason } = await import('./replay/full-path-reason.js');
      const reason = await fullPathReason(spec, ctx, services);
      if (reason !== undefined) return void (this.loopReason = reason);
      const { prepareReplay } = await import('./replay/prepare.js');
      const prepared = await prepareReplay(ctx, services);
      if ('reason' in prepared) return void (this.loopReason = prepared.reason);
      const { Replay } = await import('./replay/replay.js');
      if (!signal.aborted) this.replay = new Replay(prepared.target, stats, signal);
    })().catch((error: unknown) => {
      this.loopReason = `the request could not be prepared for replay (${error instanceof Error ? error.message : String(error)})`;
    });
  }

  figures(): StressSummary['sending'] {
    const replayed = this.replay?.count ?? 0;
    const loopReason = this.loopReason ?? this.replay?.endedBecause;
    return { replayed, loop: this.loop, ...(loopReason !== undefined ? { loopReason } : {}) };
  }
}

/**
 * What the request depends on (`# @import`, `# @depends`, `# @ref`, a reference to another
 * request's response) runs once, before the clock starts: not once per worker at the same time.
 */
export async function runDependencies(services: RunServices, spec: RequestSpec, file: string): Promise<void> {
  const { chain } = services;
  if (!chain) return;
  for (const imported of spec.chain?.imports ?? []) await chain.importFile(imported.path, file);
  for (const dependency of spec.chain?.depends ?? []) await chain.depend(dependency.path, file);
  for (const ref of spec.chain?.refs ?? []) if (!ref.force) await chain.ensure(ref.name, false);
  await chain.prepare(spec);
}

export interface StressRun {
  plan: Pick<StressPlan, 'workers' | 'rampUpMs' | 'durationMs' | 'requests' | 'rate' | 'thresholds'>;
  spec: RequestSpec;
  services: RunServices;
  file: string;
  signal: AbortSignal;
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
  const sending = new Sending();
  run.listen((outcome, latency, ctx) => {
    if (signal.aborted && outcome.error) return; // cancelled: not a result
    sentUrl ??= outcome.sent?.url;
    sending.loop++;
    stats.record(outcome, latency);
    if (outcome.response && !outcome.error && !signal.aborted) sending.decide(spec, ctx, services, stats, signal);
  });
  const stopProgress = run.progress?.(stats, startedAt) ?? (() => undefined);
  const send = async (worker: number): Promise<void> => {
    const replay = sending.replay;
    if (replay?.active) return replay.send(worker);
    await runRequest(spec, file, services);
  };
  try {
    await runSchedule(plan, send, signal, startedAt);
  } finally {
    stopProgress();
    sending.replay?.close();
  }
  const settings = { workers: plan.workers, rampUpMs: plan.rampUpMs, ...(plan.durationMs !== undefined ? { durationMs: plan.durationMs } : {}), ...(plan.requests !== undefined ? { requests: plan.requests } : {}), ...(plan.rate !== undefined ? { rate: plan.rate } : {}) };
  const request = { name: spec.name, method: spec.method, url: displayUrl(sentUrl ?? spec.url, (text) => services.secrets.scrub(text)) };
  const summary: StressSummary = stats.summary({ request, settings, interrupted: signal.aborted, sending: sending.figures() });
  summary.thresholds = judge(plan.thresholds, summary, (p) => stats.percentile(p));
  summary.passed = summary.thresholds.every((result) => result.passed);
  return summary;
}
