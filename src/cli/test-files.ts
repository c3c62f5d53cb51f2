/**
 * `reqflow test [PATH…]`: from flags to exit code. Runs the files, prints progress and the
 * summary, writes the reports. Exit 0 when every request and check passed, 1 when a check (or,
 * for a request without checks, its status) failed, else the first error's code. Never throws.
 */
import type { InvocationGlobals } from '../core/script-globals.js';
import { BUILTIN_PLUGINS } from '../pipeline/builtins.js';
import { ExitCode, UsageError } from '../core/errors/index.js';
import { AgentPool } from '../core/http/agents.js';
import { SecretRegistry } from '../core/mask.js';
import { PluginRegistry, type PluginEntry } from '../core/registry.js';
import { jsonReporter } from '../report/json.js';
import { palette, colorWanted } from '../report/render/colors.js';
import type { Reporter } from '../report/reporter.js';
import type { RequestSpec } from '../core/model.js';
import { loadRequestFile } from '../pipeline/parse-file.js';
import type { RequestFile } from '../pipeline/request-file.js';
import { collectFiles } from '../test-run/collect-files.js';
import { shownPath } from '../core/resolve-path.js';
import { Progress } from '../test-run/progress.js';
import { checkReportPaths, jsonReportSink, parseReports, writeReports } from '../test-run/reports.js';
import { maskedSink } from '../test-run/masked-report-line.js';
import type { FileResult, RunResult } from '../report/test-results.js';
import { runTestFiles } from '../test-run/run-tests.js';
import { watchFiles } from '../test-run/watch.js';
import type { CliIo } from './run-file.js';
import { exitCodeOf } from './report-error.js';
import { fileSource } from './request-source.js';
import { toRunOptions } from './run-options.js';
import { runServices, profileFlagsOf } from './run-services.js';
import type { RawTestFlags } from './test-flags.js';
import { warningLine } from '../report/render/visible.js';

function count(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1000) throw new UsageError(`--${flag} expects a whole number from 1 to 1000, got "${value.slice(0, 40)}"`);
  return Number(value);
}

function grepOf(pattern: string | undefined): RegExp | undefined {
  if (pattern === undefined) return undefined;
  try {
    return new RegExp(pattern, 'iu');
  } catch (error) {
    throw new UsageError(`--grep: invalid regular expression: ${(error as Error).message}`);
  }
}

/** The first error's code if a request or file errored, else 1 if anything failed, else 0. */
function runExitCode(files: readonly FileResult[]): number {
  for (const file of files) {
    if (file.error) return file.error.exitCode;
    for (const request of file.requests) if (request.error) return request.error.exitCode;
  }
  return files.some((file) => file.requests.some((request) => request.exitCode !== 0)) ? ExitCode.httpFailure : ExitCode.ok;
}

export async function testCommand(paths: readonly string[], flags: RawTestFlags, io: CliIo, loadThirdParty: (warn: (m: string) => void) => Promise<PluginEntry[]>): Promise<number> {
  const secrets = new SecretRegistry();
  const controller = new AbortController();
  const agents = new AgentPool();
  const onSigint = (): void => controller.abort();
  const warn = (message: string): void => void io.stderr.write(`${warningLine(secrets.scrub(message))}\n`);
  let debug = flags.debug === true;
  return exitCodeOf(
    async () => {
      const options = toRunOptions({ ...flags, output: 'pretty' }, { stdoutIsTTY: false, stdinIsTTY: false, env: io.env });
      debug = options.debug;
      const jobs = count(flags.jobs, 'jobs', 1);
      const repeat = count(flags.repeat, 'repeat', 1);
      const grep = grepOf(flags.grep);
      const reports = parseReports(flags.report ?? [], io.cwd);
      const dryRun = options.dryRun === true;
      if (dryRun && reports.length > 0) throw new UsageError('--report with --dry-run or --as: nothing is sent, so there is nothing to report');
      const tapOnStdout = reports.some((report) => report.format === 'tap' && report.path === undefined);
      // Progress goes to stderr when stdout carries a report.
      const progressStream = tapOnStdout ? io.stderr : io.stdout;
      const colors = palette(flags.color ?? colorWanted(progressStream.isTTY === true, io.env));
      // `-` is stdin, read once (before the files, whatever its place among the paths).
      const stdin = paths.includes('-') ? fileSource('-', io, flags.format) : undefined;
      if (stdin && flags.watch === true) throw new UsageError('--watch cannot watch stdin (-)', { hint: 'write the requests to a file and watch that' });
      const named = paths.filter((path) => path !== '-');
      const files = [...(stdin ? [stdin.path] : []), ...(named.length > 0 || !stdin ? await collectFiles(named, io.cwd) : [])];
      checkReportPaths(reports, files);
      const registry = new PluginRegistry(BUILTIN_PLUGINS, await loadThirdParty(warn));
      // Read before Ctrl-C is ours: a pipe or a terminal that never ends is left with Ctrl-C, as with cat.
      const fromStdin = stdin ? await stdin.load({ registry, warn, secrets }) : undefined;
      process.once('SIGINT', onSigint);
      const parse = (file: string): Promise<RequestFile> => (fromStdin && file === stdin?.path ? Promise.resolve(fromStdin) : loadRequestFile(file, registry, warn, flags.format));
      // A dry run prints the requests; only what failed (a variable no one sets) is said besides.
      const dryRunFailure = (file: string, name: string | undefined, message: string): void => void io.stderr.write(`reqflow: ${file}${name === undefined ? '' : ` › ${name}`}: ${secrets.scrub(message)}\n`);
      const runAll = async (): Promise<number> => {
        const progress = new Progress({ write: (text) => void progressStream.write(secrets.scrub(text)), live: progressStream.isTTY === true && io.env.CI !== 'true', colors }, () => totalRequests);
        let totalRequests = 0;
        const jsonTarget = reports.find((report) => report.format === 'json');
        const json = jsonTarget?.path ? await jsonReportSink(jsonTarget.path) : undefined;
        const extraReporter: Reporter | undefined = json ? redirected(jsonReporter(() => undefined), maskedSink(json.sink, (text) => secrets.scrub(text))) : undefined;
        const started = new Date();
        const startedAt = performance.now();
        const results: FileResult[] = [];
        const withoutEnvironment = new Set<string>();
        // Script globals pass from file to file of the invocation (as ijhttp does), per project and profile.
        const globals: InvocationGlobals = new Map();
        for (let round = 0; round < repeat && !controller.signal.aborted; round++) {
          results.push(
            ...(await runTestFiles(files, {
              jobs,
              bail: flags.bail === true,
              ...(grep ? { grep } : {}),
              signal: controller.signal,
              parse,
              shown: (file) => shownPath(file, io.cwd),
              services: (file, requests, reporter) => {
                totalRequests += grep ? Array.from({ length: requests.count }, (_, index) => requests.name(index)).filter((name) => grep.test(name)).length : requests.count;
                return runServices({
                  path: file,
                  requests,
                  options,
                  registry,
                  reporter,
                  output: { out: dryRun ? (chunk) => void io.stdout.write(chunk) : () => undefined, err: (line) => void io.stderr.write(`${line}\n`), stream: dryRun ? io.stdout : io.stderr },
                  secrets,
                  agents,
                  signal: controller.signal,
                  io,
                  profileFlags: profileFlagsOf(flags),
                  warn,
                  withoutEnvironmentFiles: (path) => withoutEnvironment.add(shownPath(path, io.cwd)),
                  globals,
                });
              },
              ...(extraReporter ? { extraReporter } : {}),
              onRequest: (file, result) => (dryRun ? result.error && dryRunFailure(file, result.name, result.error.message) : progress.request(file, result)),
              onFileError: (file, message) => (dryRun ? dryRunFailure(file, undefined, message) : progress.fileError(file, secrets.scrub(message))),
            })),
          );
        }
        if (withoutEnvironment.size > 0 && options.environment !== undefined) {
          const names = [...withoutEnvironment];
          io.stderr.write(`reqflow: note: ${names.length === 1 ? '1 file has' : `${names.length} files have`} no environment file and ran without --env ${options.environment}: ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}\n`);
        }
        const run: RunResult = { startedAt: started.toISOString(), durationMs: performance.now() - startedAt, files: results };
        if (!dryRun) progress.summary(run);
        if (repeat > 1 && !dryRun) io.stdout.write(await (await import('../test-run/repeat-summary.js')).repeatSummary(run, colors));
        await json?.finish(true);
        await writeReports(reports, run, (text) => void io.stdout.write(text));
        if (controller.signal.aborted) return ExitCode.interrupted;
        return runExitCode(results);
      };
      let code = await runAll();
      if (flags.watch !== true) return code;
      await watchFiles(files, controller.signal, {
        ready: () => void io.stderr.write(colors.dim(`\nwatching ${files.length} ${files.length === 1 ? 'file' : 'files'} and their environment files; Ctrl-C ends\n`)),
        run: async (changed) => {
          io.stdout.write(colors.dim(`\n── ${shownPath(changed, io.cwd)} changed: running again ──\n`));
          code = await runAll();
        },
        warn,
      });
      return code;
    },
    io.stderr,
    () => ({ debug, secrets }),
    () => {
      process.removeListener('SIGINT', onSigint);
      agents.destroy();
    },
  );
}

/** A reporter whose writes go to `sink` instead of the run's output (the JSON report file). */
function redirected(reporter: Reporter, sink: import('../core/model.js').OutputSink): Reporter {
  const view = <T extends object>(ctx: T): T => Object.create(ctx, { output: { value: sink } }) as T;
  return {
    ...(reporter.body ? { body: (ctx, body) => reporter.body?.(view(ctx), body) } : {}),
    ...(reporter.event ? { event: (ctx, event) => reporter.event?.(view(ctx), event) } : {}),
    ...(reporter.streamEnd ? { streamEnd: (ctx, end) => reporter.streamEnd?.(view(ctx), end) } : {}),
    ...(reporter.requestEnd ? { requestEnd: (outcome, ctx) => reporter.requestEnd?.(outcome, view(ctx)) } : {}),
  };
}
