/**
 * `reqflow stress FILE -n NAME`: the named request sent again and again through the same loop
 * as `reqflow run` (profiles, environments, auth, sessions, TLS, proxies), on a schedule of
 * workers, then a table (or `-o json`) and the thresholds' verdict. `--as k6` writes the same
 * scenario as a k6 script instead. The oclif command (src/commands/stress.ts) only parses flags.
 */
import { BUILTIN_PLUGINS } from '../pipeline/builtins.js';
import { ExitCode, UsageError } from '../core/errors/index.js';
import { AgentPool } from '../core/http/agents.js';
import { SecretRegistry } from '../core/mask.js';
import type { OutputSink, RequestSpec } from '../core/model.js';
import { PluginRegistry, type PluginEntry } from '../core/registry.js';
import { runRequest } from '../pipeline/loop.js';
import type { RunServices } from '../pipeline/create-context.js';
import { selectRequests } from '../pipeline/pick-requests.js';
import { listedRequests, requestsOf } from '../pipeline/request-file.js';
import { colorWanted, palette } from '../report/render/colors.js';
import { exitCodeOf } from '../cli/report-error.js';
import { fileSource } from '../cli/request-source.js';
import type { CliIo } from '../cli/run-file.js';
import { toRunOptions } from '../cli/run-options.js';
import { runServices, profileFlagsOf } from '../cli/run-services.js';
import { stressPlan, type RawStressFlags, type StressPlan } from './flags.js';
import { liveProgress } from './progress.js';
import { stressRecorder } from './recorder.js';
import { runDependencies, runStressEngine, type OutcomeHandler } from './engine.js';
import { stressTable } from './table.js';
import { visibleJson, warningLine } from '../report/render/visible.js';

/** The one request a stress run sends: `-n NAME`, or the file's only request. */
function pickRequest(specs: RequestSpec[], names: readonly string[], file: string): RequestSpec {
  if (names.length > 1) throw new UsageError('stress sends one request: give -n once', { hint: `requests in this file: ${specs.map((s) => s.name).join(', ')}` });
  const [index] = selectRequests(listedRequests(specs), names) ?? [0];
  const picked = specs[index as number];
  if (!picked || (names.length === 0 && specs.length !== 1)) throw new UsageError(specs.length === 0 ? `${file} has no request` : `${file} has ${specs.length} requests: name one with -n`, { hint: `requests in this file: ${specs.map((s) => s.name).join(', ')}` });
  return picked;
}

/** Warnings a request gives are said once, not once per request of the run. */
function onceEach(write: (line: string) => void): (line: string) => void {
  const seen = new Set<string>();
  return (line) => {
    if (seen.has(line)) return;
    if (seen.size < 100) seen.add(line);
    write(line);
  };
}

export function stressCommand(file: string | undefined, flags: RawStressFlags, io: CliIo, loadThirdParty: (warn: (m: string) => void) => Promise<PluginEntry[]>): Promise<number> {
  const secrets = new SecretRegistry();
  // Ctrl-C: no new request starts, and those in flight are cancelled (not counted).
  const controller = new AbortController();
  // One connection per worker (a run's default is 16 per origin); the plan checks --workers again below.
  const agents = new AgentPool(Math.max(1, Number(flags.workers ?? 10) || 10));
  const onSigint = (): void => controller.abort();
  const err = onceEach((line) => void io.stderr.write(`${secrets.scrub(line)}\n`));
  const warn = (message: string): void => err(warningLine(message));
  let debug = flags.debug === true;
  return exitCodeOf(
    async () => {
      if (!file) throw new UsageError('missing request file', { hint: 'usage: reqflow stress FILE -n NAME [--workers N] [--duration 30s | --requests N] (see reqflow stress --help)' });
      const plan = stressPlan(flags);
      const from = fileSource(file, io, flags.format);
      const options = toRunOptions({ ...flags, output: 'pretty', history: false, as: undefined, force: false }, { stdoutIsTTY: false, stdinIsTTY: from.readsStdin !== true && (io.stdinIsTTY ?? io.stdin.isTTY === true), env: io.env });
      debug = options.debug;
      if (plan.k6) options.dryRun = true; // the request is built, auth included, and not sent
      const registry = new PluginRegistry(BUILTIN_PLUGINS, await loadThirdParty(warn));
      const requests = await from.load({ registry, warn, secrets });
      const specs = [...requestsOf(requests)];
      const spec = pickRequest(specs, flags.name ?? [], file);
      let onOutcome: OutcomeHandler = () => undefined;
      const output: OutputSink = { out: () => undefined, err };
      const services = await runServices({
        path: from.path,
        requests,
        options,
        registry,
        reporter: stressRecorder(spec, (outcome, latency, ctx) => onOutcome(outcome, latency, ctx)),
        output,
        secrets,
        agents,
        signal: controller.signal,
        io,
        profileFlags: profileFlagsOf(flags),
        warn,
      });
      process.once('SIGINT', onSigint);
      await runDependencies(services, spec, from.path);
      if (plan.k6) {
        const { writeK6Script } = await import('./k6/write-script.js');
        return writeK6Script({ spec, file: from.path, plan, services, io, run: () => runRequest(spec, from.path, services) });
      }
      return await stress(plan, spec, services, from.path, io, flags.color, (handler) => (onOutcome = handler), controller);
    },
    io.stderr,
    () => ({ debug, secrets }),
    () => {
      process.removeListener('SIGINT', onSigint);
      agents.destroy();
    },
  );
}

/** The run itself (engine.ts), then the table or the JSON document and the exit code. */
async function stress(plan: StressPlan, spec: RequestSpec, services: RunServices, file: string, io: CliIo, color: boolean | undefined, listen: (handler: OutcomeHandler) => void, controller: AbortController): Promise<number> {
  const { signal } = controller;
  const cancelInFlight = (): void => controller.abort();
  const summary = await runStressEngine({ plan, spec, services, file, signal, cancelInFlight, listen, progress: (stats, startedAt) => liveProgress(stats, io.stderr, plan.durationMs, startedAt) });
  const text = plan.json ? `${visibleJson(JSON.stringify(summary, null, 2))}\n` : stressTable(summary, palette(color ?? colorWanted(io.stdout.isTTY === true, io.env)));
  io.stdout.write(services.secrets.scrub(text));
  if (summary.interrupted) return ExitCode.interrupted;
  return summary.passed ? ExitCode.ok : ExitCode.httpFailure;
}
