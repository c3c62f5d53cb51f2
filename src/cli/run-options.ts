import { resolve } from 'node:path';
import { UsageError } from '../core/errors/index.js';
import type { RunOptions } from '../core/model.js';
import { DEFAULT_MAX_SIZE } from '../core/read-body.js';
import { colorWanted } from '../report/render/colors.js';
import type { RawRunFlags } from './run-flags.js';

function positiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) <= 0) throw new UsageError(`--${flag} expects a positive whole number, got "${value.slice(0, 40)}"`);
  return Number(value);
}

/** A duration in milliseconds that Node's timers can hold (at most 2^31 - 1, about 24.8 days). */
function duration(value: string | undefined, flag: string): number | undefined {
  const ms = positiveInteger(value, flag);
  if (ms !== undefined && ms > 2 ** 31 - 1) throw new UsageError(`--${flag} must be at most 2147483647 ms (about 24 days), got ${value}`);
  return ms;
}

/** `-e name=value` pairs; a value may itself contain `=`. */
function parseCliVariables(pairs: readonly string[] = []): Record<string, string> {
  // No prototype: `-e __proto__=x` is a variable like any other.
  const variables = Object.create(null) as Record<string, string>;
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`-e expects NAME=VALUE, got "${pair.slice(0, 40)}"`, { hint: 'for example: -e token=abc123' });
    const name = pair.slice(0, eq);
    if (!/^[A-Za-z_$][\w.$-]*$/.test(name)) throw new UsageError(`-e: invalid variable name ${JSON.stringify(name.slice(0, 40))}`, { hint: 'names are letters, digits, _ . $ and -, starting with a letter, _ or $' });
    variables[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return variables;
}

/** Validates the raw flags once, where they enter. */
export function toRunOptions(flags: RawRunFlags, io: { stdoutIsTTY: boolean; stdinIsTTY: boolean; env: NodeJS.ProcessEnv }): RunOptions {
  const output = flags.output ?? 'pretty';
  if (output !== 'pretty' && output !== 'json' && output !== 'raw') throw new UsageError(`--output must be pretty, json or raw, got "${output}"`);
  const options: RunOptions = {
    output,
    verbose: flags.verbose === true,
    timeoutMs: duration(flags.timeout, 'timeout') ?? 30_000,
    extract: flags.extract !== false,
    insecure: flags.insecure === true,
    followRedirects: flags.follow === true,
    maxSizeBytes: positiveInteger(flags['max-size'], 'max-size') ?? DEFAULT_MAX_SIZE,
    color: flags.color ?? (output === 'pretty' && colorWanted(io.stdoutIsTTY, io.env)),
    isTerminal: io.stdoutIsTTY,
    interactive: io.stdinIsTTY,
    debug: flags.debug === true || io.env.REQFLOW_DEBUG === '1',
    cliVariables: parseCliVariables(flags.variable),
  };
  if (flags.filter !== undefined) options.filter = flags.filter;
  if (flags.force === true) options.force = true;
  if (flags.save === true) options.save = true;
  if (flags.cookies === false) options.cookies = false;
  if (flags.session === false) options.session = false;
  if (flags.history === false) options.history = false;
  if (flags.trust === true) options.trust = true;
  if (flags['dry-run'] === true) options.dryRun = true;
  if (flags.as !== undefined) {
    if (flags.as !== 'curl' && flags.as !== 'http') throw new UsageError(`--as must be curl or http, got "${flags.as.slice(0, 40)}"`);
    options.dryRun = true;
    options.dryRunAs = flags.as;
  }
  if (flags['show-secrets'] === true) {
    // Elsewhere secrets are never shown: a flag that did nothing would suggest otherwise.
    if (options.dryRun !== true) throw new UsageError('--show-secrets goes with --dry-run or --as', { hint: 'it prints the requests with their secrets instead of sending them' });
    options.showSecrets = true;
  }
  if (flags.proxy !== undefined) options.proxy = flags.proxy;
  if (flags.retry !== undefined) {
    if (!/^\d{1,3}$/.test(flags.retry) || Number(flags.retry) > 100) throw new UsageError(`--retry expects a whole number from 0 to 100, got "${flags.retry.slice(0, 40)}"`);
    options.retry = Number(flags.retry);
  }
  if (flags['retry-all'] === true) options.retryAll = true;
  if (flags.http2 === true) options.http2 = true;
  if (flags['unix-socket'] !== undefined) {
    if (flags['unix-socket'].trim() === '') throw new UsageError('--unix-socket expects the path of a socket, got ""');
    options.unixSocket = resolve(flags['unix-socket']);
  }
  if (flags.noproxy !== undefined) options.noProxy = flags.noproxy;
  const scriptTimeout = duration(flags['script-timeout'], 'script-timeout');
  if (scriptTimeout !== undefined) options.scriptTimeoutMs = scriptTimeout;
  const maxTime = duration(flags['max-time'], 'max-time');
  if (maxTime !== undefined) options.maxTimeMs = maxTime;
  const environment = flags.env ?? io.env.REQFLOW_ENV;
  if (environment !== undefined && environment !== '') options.environment = environment;
  const maxEvents = positiveInteger(flags['max-events'], 'max-events');
  if (maxEvents !== undefined) options.maxEvents = maxEvents;
  const streamTimeout = duration(flags['stream-timeout'], 'stream-timeout');
  if (streamTimeout !== undefined) options.streamTimeoutMs = streamTimeout;
  return options;
}
