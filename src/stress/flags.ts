/**
 * The flags of `reqflow stress`: `run`'s flags about sending (same meaning, one table) and the
 * load test's own, checked into a {@link StressPlan} where they enter.
 */
import { UsageError } from '../core/errors/index.js';
import { parseDuration } from '../core/duration.js';
import { type FlagSpec, type RawRunFlags, RUN_FLAGS } from '../cli/run-flags.js';
import type { Schedule } from './schedule.js';
import { parseThreshold, type Threshold } from './thresholds.js';

const SHARED = ['variable', 'profile', 'profiles', 'env', 'timeout', 'max-time', 'extract', 'insecure', 'follow', 'http2', 'unix-socket', 'proxy', 'noproxy', 'cookies', 'script-timeout', 'max-size', 'format', 'color', 'debug'] as const;

export const STRESS_FLAGS = {
  ...Object.fromEntries(SHARED.map((name) => [name, RUN_FLAGS[name]])),
  // Run's -n, described for one request: stress sends one (run-stress.ts refuses a second -n).
  name: { ...RUN_FLAGS.name, description: 'The request to send (by name), when the file has several.' },
  workers: { type: 'string', char: 'c', helpValue: 'N', default: '10', description: 'Concurrent workers (connections), each sending the request again as soon as its last one ended.' },
  'ramp-up': { type: 'string', helpValue: 'DURATION', description: 'Start the workers one after another over this time (500ms, 10s, 1m) instead of all at once.' },
  duration: { type: 'string', char: 'd', helpValue: 'DURATION', description: 'Send for this long, ramp-up included (default: 10s unless --requests is given).' },
  requests: { type: 'string', char: 'r', helpValue: 'N', description: 'Send this many requests in all, then stop (instead of --duration).' },
  rate: { type: 'string', helpValue: 'N', description: 'At most N requests per second across all workers.' },
  threshold: { type: 'string', multiple: true, helpValue: 'EXPR', description: 'Pass or fail the run (exit 1): p95<300ms, p99<=1s, avg<100ms, max<2s, error_rate<1%, rps>=100. Repeatable.' },
  output: { type: 'string', char: 'o', helpValue: 'table|json|FILE', description: 'table (default) or json (one document, for CI); with --as k6, the script file to write (default: stdout).' },
  as: { type: 'string', options: ['k6'], helpValue: 'k6', description: 'Write a k6 script for the same scenario instead of running it (secrets as k6 environment variables).' },
  force: { type: 'boolean', description: 'With --as k6 -o FILE: replace FILE if it exists.' },
} as const satisfies Record<string, FlagSpec>;

export interface RawStressFlags extends RawRunFlags {
  workers?: string;
  'ramp-up'?: string;
  duration?: string;
  requests?: string;
  rate?: string;
  threshold?: string[];
}

export interface StressPlan extends Schedule {
  thresholds: Threshold[];
  /** `-o json`: one JSON document; else the table. */
  json: boolean;
  /** `--as k6`: the script, written to `scriptPath` (stdout when absent). */
  k6?: { scriptPath?: string; force: boolean };
}

const DEFAULT_DURATION_MS = 10_000;
const MAX_MS = 2 ** 31 - 1;

function whole(value: string | undefined, flag: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) throw new UsageError(`--${flag} expects a whole number from 1 to ${max}, got "${value.slice(0, 40)}"`);
  return Number(value);
}

function time(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseDuration(value);
  if (ms === undefined || ms > MAX_MS) throw new UsageError(`--${flag} expects a duration such as 500ms, 10s or 2m, got "${value.slice(0, 40)}"`);
  return ms;
}

export function stressPlan(flags: RawStressFlags): StressPlan {
  const workers = whole(flags.workers ?? '10', 'workers', 10_000) as number;
  const requests = whole(flags.requests, 'requests', 1_000_000_000);
  let durationMs = time(flags.duration, 'duration');
  if (requests !== undefined && durationMs !== undefined) throw new UsageError('give --duration or --requests, not both', { hint: 'a run ends after a time (--duration 30s) or a count (--requests 10000)' });
  if (requests === undefined) durationMs ??= DEFAULT_DURATION_MS;
  if (durationMs === 0) throw new UsageError('--duration must be more than 0');
  const rampUpMs = time(flags['ramp-up'], 'ramp-up') ?? 0;
  if (durationMs !== undefined && rampUpMs >= durationMs) throw new UsageError(`--ramp-up (${flags['ramp-up']}) must be shorter than the run (${flags.duration ?? '10s'})`, { hint: '--duration includes the ramp-up' });
  let rate: number | undefined;
  if (flags.rate !== undefined) {
    rate = Number(flags.rate);
    if (!/^\d+(\.\d+)?$/.test(flags.rate) || !(rate > 0) || rate > 1_000_000) throw new UsageError(`--rate expects requests per second (a number above 0), got "${flags.rate.slice(0, 40)}"`);
  }
  const thresholds = (flags.threshold ?? []).map(parseThreshold);
  const output = flags.output;
  const plan: StressPlan = { workers, rampUpMs, thresholds, json: false, ...(requests !== undefined ? { requests } : {}), ...(durationMs !== undefined ? { durationMs } : {}), ...(rate !== undefined ? { rate } : {}) };
  if (flags.as !== undefined) {
    if (flags.as !== 'k6') throw new UsageError(`--as must be k6, got "${flags.as.slice(0, 40)}"`);
    plan.k6 = { ...(output !== undefined && output !== '-' ? { scriptPath: output } : {}), force: flags.force === true };
  } else if (output !== undefined) {
    if (output !== 'table' && output !== 'json') throw new UsageError(`--output must be table or json, got "${output.slice(0, 40)}"`, { hint: '-o FILE names the script file of --as k6' });
    plan.json = output === 'json';
  }
  if (flags.force === true && !plan.k6?.scriptPath) throw new UsageError('--force goes with --as k6 -o FILE', { hint: 'it lets the script replace an existing file' });
  return plan;
}
