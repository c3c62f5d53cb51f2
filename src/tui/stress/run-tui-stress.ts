/**
 * A stress run started from the UI (`L`), loaded only when the key is pressed: the settings
 * line read as `reqflow stress` reads its flags, the CLI's engine on the workspace's services
 * (the profile, environment, session and secrets of the UI; a pool of connections of its own;
 * no history), live progress in the status bar, the CLI's result table in a window. A duration's
 * run ends as the CLI's: what is in flight 5 s after it is cut by the engine (`cancelInFlight`).
 */
import { UsageError } from '../../core/errors/index.js';
import { AgentPool } from '../../core/http/agents.js';
import type { RequestSpec } from '../../core/model.js';
import { runDependencies, runStressEngine, type OutcomeHandler } from '../../stress/engine.js';
import { stressPlan, type StressPlan } from '../../stress/flags.js';
import type { StressStats } from '../../stress/stats.js';
import { stressRecorder } from '../../stress/recorder.js';
import { stressTable } from '../../stress/table.js';
import type { StressHost } from '../actions/host.js';
import { modalPrompter } from '../actions/prompt.js';
import { Ticker } from '../ticker.js';
import { colors } from '../views/format.js';
import { TextOverlay } from '../views/overlay.js';

const PROGRESS_MS = 250;

/** `10 10s` (workers, duration) or `5 1000` (workers, requests), with `reqflow stress`'s rules and errors. */
function formPlan(answer: string): StressPlan {
  const [workers, amount, extra] = answer.trim().split(/\s+/);
  if (!workers || extra !== undefined) throw new UsageError(`stress: expected workers and a duration or a number of requests (10 10s), got "${answer.slice(0, 40)}"`);
  const count = amount !== undefined && /^\d+$/.test(amount);
  return stressPlan({ workers, ...(amount === undefined ? {} : count ? { requests: amount } : { duration: amount }) });
}

/** The status bar's live line, what matters first (the bar cuts the end on a narrow terminal). */
function progressLine(name: string, stats: StressStats, plan: StressPlan, startedAt: number): string {
  const now = stats.progress();
  const elapsed = ((performance.now() - startedAt) / 1000).toFixed(1);
  const of = plan.durationMs !== undefined ? `${elapsed}/${(plan.durationMs / 1000).toFixed(0)} s` : `${now.count}/${plan.requests} in ${elapsed} s`;
  const p95 = now.p95 !== undefined ? `, p95 ${now.p95.toFixed(1)} ms` : '';
  return `stress ${name} (Esc stops): ${now.count} req, ${now.errors} err, ${now.rps.toFixed(0)}/s · ${of}${p95}`;
}

export async function runTuiStress(app: StressHost, run: { spec: RequestSpec; file: string; answer: string; signal: AbortSignal }): Promise<void> {
  const { spec, file } = run;
  const plan = formPlan(run.answer);
  // Esc's signal, or the engine's cut of what a duration's run still has in flight 5 s after its end (a dripping server), as `reqflow stress -d` does.
  const cut = new AbortController();
  const signal = AbortSignal.any([run.signal, cut.signal]);
  const agents = new AgentPool(plan.workers); // one connection per worker, apart from the UI's sends
  const warnings = new Set<string>();
  let onOutcome: OutcomeHandler = () => undefined;
  const io = { output: { out: () => undefined, err: (line: string) => void (warnings.size < 20 && warnings.add(line)) }, reporter: stressRecorder(spec, (outcome, latency, ctx) => onOutcome(outcome, latency, ctx)), prompter: modalPrompter(app, signal), signal, agents };
  try {
    app.say(`stress ${spec.name}: starting…`);
    const summary = await app.workspace.withRunServices(file, io, async (services) => {
      await runDependencies(services, spec, file);
      const progress = (stats: StressStats, startedAt: number): (() => void) => {
        const ticker = new Ticker(PROGRESS_MS, () => app.gone || app.say(progressLine(spec.name, stats, plan, startedAt)));
        ticker.set(true);
        return () => ticker.set(false);
      };
      return runStressEngine({ plan, spec, services, file, signal, cancelInFlight: () => cut.abort(), listen: (handler) => (onOutcome = handler), progress });
    });
    if (app.gone) return;
    // The CLI's table says Ctrl-C stops a run; here Esc did.
    const table = app.workspace.secrets.scrub(stressTable(summary, colors)).replace('(Ctrl-C)', '(Esc)').trimEnd().split('\n');
    const notes = [...warnings].map((line) => colors.warn(app.workspace.secrets.scrub(line)));
    app.say(`stress ${spec.name}: ${summary.count} requests, ${summary.rps.toFixed(1)} req/s${summary.interrupted ? ' (stopped)' : ''}`);
    app.open(new TextOverlay(app, 'Stress', notes.length > 0 ? [...table, '', ...notes] : table, 96));
  } finally {
    agents.destroy();
  }
}
