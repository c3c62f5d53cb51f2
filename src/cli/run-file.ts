import { isatty } from 'node:tty';
import { BUILTIN_PLUGINS } from '../pipeline/builtins.js';
import { ExitCode, ReqflowError, UsageError, fileErrorWords } from '../core/errors/index.js';
import { AgentPool } from '../core/http/agents.js';
import { SecretRegistry, displayUrl } from '../core/mask.js';
import type { OutputSink, RunOptions } from '../core/model.js';
import { PluginRegistry, type PluginEntry } from '../core/registry.js';
import { runRequests } from '../pipeline/loop.js';
import { requestsOf } from '../pipeline/request-file.js';
import { refuseUnsendable } from '../pipeline/unsendable-urls.js';
import type { Reporter, RequestOutcome } from '../report/reporter.js';
import { exitCodeOf, formatError } from './report-error.js';
import type { RawRunFlags } from './run-flags.js';
import { toRunOptions } from './run-options.js';
import { fileSource, type RequestSource } from './request-source.js';
import { isUrl, notARequestFileError } from './usage-errors.js';
import { runServices, profileFlagsOf } from './run-services.js';
import { visibleLine, warningLine } from '../report/render/visible.js';


/** A name or URL as a cell of `--list`: what a terminal acts on made visible, and no tab or line break of its own to split the row. */
const listCell = (text: string): string => visibleLine(text).replace(/\t/g, '\u2409');

/** What bin/run.cjs provides when it loads this code from a bundle (absent under `REQFLOW_NO_BUNDLE=1`). */
interface CodeCacheHook {
  __reqflowRequestPathRan?: () => void;
}

export interface CliIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  /** Whether stdin is a terminal, when known without building `stdin` (see processIo). */
  stdinIsTTY?: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // Building process.stdin costs ms of start-up: only a prompt needs the stream itself.
    get stdin() {
      return process.stdin;
    },
    stdinIsTTY: isatty(0),
    env: process.env,
    cwd: process.cwd(),
  };
}

function sinkFor(io: CliIo, outputGone: () => boolean): OutputSink {
  return {
    out: (chunk) => void (outputGone() ? undefined : io.stdout.write(chunk)),
    err: (line) => void io.stderr.write(`${line}\n`),
    stream: io.stdout,
  };
}

/** `reqflow run x > /dev/full`: one line naming why, exit 74 — never exit 0 with the output cut short. */
function outputWriteError(error: NodeJS.ErrnoException): ReqflowError {
  const why = fileErrorWords(error.code) ?? error.code ?? error.message;
  return new ReqflowError(`cannot write the output: ${why}`, { exitCode: ExitCode.output, hint: 'the output is incomplete; check the disk or the file it is redirected to' });
}

/** Resolves once what was written to stdout has been handed to the system (or stdout failed). */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  const writable = stream as NodeJS.WriteStream & { writableNeedDrain?: boolean };
  // A failed write reports on a later tick: give it one turn of the event loop to arrive.
  if (!writable.writableNeedDrain) return new Promise((resolve) => setImmediate(resolve));
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done).off('error', done).off('close', done);
      resolve();
    };
    stream.on('drain', done).on('error', done).on('close', done);
  });
}

/** The reporter of `-o pretty|json|raw`, imported only for the mode in use. */
async function cliReporter(options: RunOptions, printError: (outcome: RequestOutcome) => void): Promise<Reporter> {
  switch (options.output) {
    case 'json':
      return (await import('../report/json.js')).jsonReporter(printError);
    case 'raw':
      return (await import('../report/raw.js')).rawReporter(printError);
    default:
      return (await import('../report/pretty.js')).prettyReporter(printError);
  }
}

/** `reqflow run FILE`: the whole run, from flags to exit code. Never throws. */
export function runFileCommand(file: string | undefined, flags: RawRunFlags, io: CliIo, loadThirdParty: (warn: (m: string) => void) => Promise<PluginEntry[]>): Promise<number> {
  return runSourceCommand(
    () => {
      if (!file) throw new UsageError('missing request file', { hint: 'usage: reqflow run FILE [-e NAME=VALUE] [-p PROFILE] (see reqflow run --help); reqflow run - reads stdin' });
      if (isUrl(file)) throw notARequestFileError(file);
      return fileSource(file, io, flags.format);
    },
    flags,
    io,
    loadThirdParty,
  );
}

/**
 * A run over the requests of one source (a file, stdin, `reqflow send`'s arguments), from
 * flags to exit code: `source` is called first, and a usage error it throws is reported like
 * any other. Never throws.
 */
export async function runSourceCommand(source: () => RequestSource, flags: RawRunFlags, io: CliIo, loadThirdParty: (warn: (m: string) => void) => Promise<PluginEntry[]>): Promise<number> {
  const secrets = new SecretRegistry();
  const controller = new AbortController();
  // `reqflow run x | head`: the reader left. Stop quietly (no EPIPE stack trace), like httpie.
  let outputClosed = false;
  // Any other write error (disk full, I/O error) is a failure the user must hear of.
  let outputError: NodeJS.ErrnoException | undefined;
  const onStdoutError = (error: NodeJS.ErrnoException): void => {
    outputClosed = true;
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') outputError ??= error;
    controller.abort();
  };
  // Kept after the run returns: buffered output may still meet the closed pipe while exiting.
  io.stdout.on('error', onStdoutError);
  io.stderr.on('error', () => undefined);
  const output = sinkFor(io, () => outputClosed);
  const warn = (message: string): void => output.err(warningLine(message));
  let debug = flags.debug === true;
  const agents = new AgentPool();
  const onSigint = (): void => controller.abort();
  return exitCodeOf(
    async () => {
      const from = source();
      const options = toRunOptions(flags, { stdoutIsTTY: io.stdout.isTTY === true, stdinIsTTY: from.readsStdin !== true && (io.stdinIsTTY ?? io.stdin.isTTY === true), env: io.env });
      debug = options.debug;
      const registry = new PluginRegistry(BUILTIN_PLUGINS, await loadThirdParty(warn));
      // The reporter's module compiles while the file is read and the request is in flight (start-up time).
      const printError = (outcome: RequestOutcome): void => {
        if (!outputClosed && outcome.error) io.stderr.write(formatError(outcome.error, { debug, secrets }).text);
      };
      const reporter = flags.list ? undefined : cliReporter(options, printError);
      reporter?.catch(() => undefined);
      const { path } = from;
      // Read before Ctrl-C is ours: a pipe or a terminal that never ends is left with Ctrl-C, as with cat.
      const requests = await from.load({ registry, warn, secrets });
      process.once('SIGINT', onSigint);
      if (flags.list) {
        // Writes of 64 kB: a write per line is slow, and one for 100,000 lines holds them all.
        let list = '';
        for (const spec of requestsOf(requests)) {
          list += `${listCell(spec.name)}\t${spec.method}\t${listCell(displayUrl(spec.url, (text) => secrets.scrub(text)))}\n`;
          if (list.length < 65_536) continue;
          output.out(list);
          list = '';
        }
        output.out(list);
        return ExitCode.ok;
      }
      const names = flags.name ?? [];
      let selected: number[] | undefined;
      if (names.length > 0 || options.filter !== undefined || requests.filtered.length > 0) {
        const pick = await import('../pipeline/pick-requests.js'); // -n, or a filter to check first
        selected = pick.selectRequests(requests, names);
        await pick.validateFilters(requests, selected, options);
      }
      await refuseUnsendable(requests, selected, options.dryRun === true);
      const services = await runServices({
        path,
        requests,
        options,
        registry,
        reporter: await (reporter as Promise<Reporter>),
        output,
        secrets,
        agents,
        signal: controller.signal,
        io,
        profileFlags: profileFlagsOf(flags),
        warn,
      });
      const run = await runRequests(requestsOf(requests, selected), path, services, { failFast: flags['fail-fast'] === true, stop: () => outputClosed });
      // bin/run.cjs's code cache: a run that got a response compiled the request path, worth caching.
      if (run.requests > run.errors) (globalThis as CodeCacheHook).__reqflowRequestPathRan?.();
      // A write that fails after the last request still counts. Once stdout has failed it never
      // drains: waiting would empty the event loop and end the run with exit 0, nothing said.
      if (!outputClosed) await drained(io.stdout);
      if (outputError) throw outputWriteError(outputError);
      if (controller.signal.aborted && !outputClosed && !run.streamEndedByUser) return ExitCode.interrupted;
      return run.exitCode;
    },
    io.stderr,
    () => ({ debug, secrets }),
    () => {
      process.removeListener('SIGINT', onSigint);
      agents.destroy();
    },
  );
}
