import { dirname, resolve } from 'node:path';
import { isatty } from 'node:tty';
import { BUILTIN_PLUGINS } from '../core/builtins.js';
import { ExitCode, UsageError } from '../core/errors/index.js';
import { AgentPool } from '../core/http/agents.js';
import { SecretRegistry, displayUrl, isSecretName } from '../core/mask.js';
import type { OutputSink } from '../core/pipeline.js';
import { resolveProfile } from '../core/profiles.js';
import { noTerminalPrompter, terminalPrompter } from '../core/prompt.js';
import { PluginRegistry, type PluginEntry } from '../core/registry.js';
import { combinedExitCode, executeRequest, parseRequestFile, selectRequests, validateFilters, type RequestOutcome, type RunServices } from '../core/runner.js';
import { loadSession } from '../core/session.js';
import { errorRecord } from '../core/render/json-record.js';
import { formatError } from './report-error.js';
import type { RawRunFlags } from './run-flags.js';
import { toRunOptions } from './run-options.js';

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

/** `reqflow run FILE`: the whole run, from flags to exit code. Never throws. */
export async function runFileCommand(file: string | undefined, flags: RawRunFlags, io: CliIo, loadThirdParty: (warn: (m: string) => void) => Promise<PluginEntry[]>): Promise<number> {
  const secrets = new SecretRegistry();
  const controller = new AbortController();
  // `reqflow run x | head`: the reader left. Stop quietly (no EPIPE stack trace), like httpie.
  let outputClosed = false;
  const onStdoutError = (): void => {
    outputClosed = true;
    controller.abort();
  };
  // Kept after the run returns: buffered output may still meet the closed pipe while exiting.
  io.stdout.on('error', onStdoutError);
  io.stderr.on('error', () => undefined);
  const output = sinkFor(io, () => outputClosed);
  const warn = (message: string): void => output.err(`reqflow: warning: ${message}`);
  let debug = flags.debug === true;
  const agents = new AgentPool();
  const onSigint = (): void => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    if (!file) throw new UsageError('missing request file', { hint: 'usage: reqflow run FILE [-e NAME=VALUE] [-p PROFILE] (see reqflow run --help)' });
    const options = toRunOptions(flags, { stdoutIsTTY: io.stdout.isTTY === true, stdinIsTTY: io.stdinIsTTY ?? io.stdin.isTTY === true, env: io.env });
    debug = options.debug;
    const registry = new PluginRegistry(BUILTIN_PLUGINS, await loadThirdParty(warn));
    // The output's renderer compiles while the file is read and the request is in flight
    // (start-up time); a failure to load surfaces where it is used, in the render stage.
    const renderer = flags.list ? undefined : registry.entries.find((entry) => entry.builtin && entry.name === `render-${options.output}`);
    if (renderer) void registry.load(renderer).catch(() => undefined);
    const path = resolve(io.cwd, file);
    const specs = await parseRequestFile(path, registry);
    if (flags.list) {
      // One write for the whole list: a file of 10,000 requests is 10,000 lines.
      output.out(specs.map((spec) => `${spec.name}\t${spec.method}\t${displayUrl(spec.url, (text) => secrets.scrub(text))}\n`).join(''));
      return ExitCode.ok;
    }
    const selected = selectRequests(specs, flags.name ?? []);
    await validateFilters(selected, options);
    const { profile, document } = await resolveProfile({ requestDir: dirname(path), ...(flags.profiles ? { profilesPath: flags.profiles } : {}), ...(flags.profile ? { profile: flags.profile } : {}), env: io.env, cwd: io.cwd });
    for (const [name, value] of Object.entries(options.cliVariables)) if (isSecretName(name)) secrets.add(value);
    const session = await loadSession(profile.name, { env: io.env, warn });
    const services: RunServices = {
      registry,
      options,
      profile,
      ...(document.path ? { profilesPath: document.path } : {}),
      session,
      output,
      prompter: options.interactive ? terminalPrompter(io.stdin, io.stderr) : noTerminalPrompter,
      promptCache: new Map(),
      secrets,
      agents,
      signal: controller.signal,
      env: io.env,
    };
    // Only what the exit code needs is kept: holding every context (and its body) would make
    // memory grow with the length of the file.
    const outcomes: RequestOutcome[] = [];
    let streamEndedByUser = false;
    for (const spec of selected) {
      if (controller.signal.aborted) break;
      const outcome = await executeRequest(spec, path, services);
      if (outputClosed) break; // the request cut short by the closed output is not a failure
      if (outcome.ctx?.state.streamEndedByUser === true) streamEndedByUser = true;
      outcomes.push({ spec, exitCode: outcome.exitCode, ...(outcome.error ? { error: outcome.error } : {}) });
      if (outcome.error) {
        if (options.output === 'json') {
          const scrub = (text: string): string => secrets.scrub(text);
          output.out(`${JSON.stringify(errorRecord(outcome.ctx ?? { spec, redact: scrub }, outcome.error, scrub))}\n`);
        }
        io.stderr.write(formatError(outcome.error, { debug, secrets }).text);
      }
      if (flags['fail-fast'] && outcome.exitCode !== ExitCode.ok) break;
    }
    if (controller.signal.aborted && !outputClosed && !streamEndedByUser) return ExitCode.interrupted;
    return combinedExitCode(outcomes);
  } catch (error) {
    const { text, exitCode } = formatError(error, { debug, secrets });
    io.stderr.write(text);
    return exitCode;
  } finally {
    process.removeListener('SIGINT', onSigint);
    agents.destroy();
  }
}
