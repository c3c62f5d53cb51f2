import { UsageError } from './errors/index.js';
import type { Profile, RequestSpec, RunOptions } from './model.js';
import type { Http2Mode } from './http/http2.js';

/** The longest delay Node's timers take (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** How one request goes on the wire: the run's flags, changed by the request's annotations. */
export interface RequestSettings {
  /** Time-out for connecting and each silence while receiving (`--timeout`, `# @timeout`). */
  timeoutMs: number;
  /** Time-out for the connection alone (`# @connection-timeout`). */
  connectTimeoutMs?: number;
  /** `-L`, unless `# @no-redirect`. */
  followRedirects: boolean;
  /** `--max-time`: the whole request, body included. */
  maxTimeMs?: number;
  /** `--retry N`, `# @retry N`: how many times it may be sent again. */
  retry?: number;
  /** `HTTP/2` in the request line: required; `--http2` or the profile's `http2`: preferred; `HTTP/1.1` there: never. */
  http2?: Http2Mode | 'never';
  /** `--unix-socket PATH`. */
  socketPath?: string;
}

/** Where annotation `key` of `spec` is written: its own line where the format knows it (`.http`), else the request's. */
export function annotationLine(spec: RequestSpec, key: string): number {
  return spec.source.annotationLines?.[key] ?? spec.source.line;
}

/**
 * `# @timeout 30`, `# @timeout 500 ms`, `# @connection-timeout 2 s`: a bare number is seconds,
 * as in JetBrains' HTTP Client (which defines these annotations); `ms`, `s` and `m` name the unit.
 */
function duration(spec: RequestSpec, key: string): number | undefined {
  const raw = spec.annotations[key];
  if (raw === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/.exec(raw.trim());
  const where = `# @${key} of request "${spec.name}" (${spec.source.file}:${annotationLine(spec, key)})`;
  if (!match) throw new UsageError(`${where} expects a duration such as 30, 500 ms or 2 m, got ${JSON.stringify(raw.slice(0, 40))}`);
  const ms = Number(match[1]) * (UNIT_MS[match[2] ?? 's'] as number);
  if (ms <= 0 || ms > MAX_TIMER_MS) throw new UsageError(`${where} must be more than 0 and at most ${MAX_TIMER_MS} ms (about 24 days), got ${JSON.stringify(raw)}`);
  return Math.round(ms);
}

/** `# @retry 3`: a whole number from 0 to 100. */
function retries(spec: RequestSpec): number | undefined {
  const raw = spec.annotations.retry;
  if (raw === undefined) return undefined;
  if (!/^\s*\d{1,3}\s*$/.test(raw) || Number(raw) > 100) throw new UsageError(`# @retry of request "${spec.name}" (${spec.source.file}:${annotationLine(spec, 'retry')}) expects a whole number from 0 to 100, got ${JSON.stringify(raw.slice(0, 40))}`);
  return Number(raw);
}

/** Validated where they are used, so a bad value fails this request with a line naming it, before it is sent. */
export function requestSettings(spec: RequestSpec, options: RunOptions, profile?: Pick<Profile, 'http2'>): RequestSettings {
  const settings: RequestSettings = {
    timeoutMs: duration(spec, 'timeout') ?? options.timeoutMs,
    followRedirects: options.followRedirects && spec.annotations['no-redirect'] === undefined,
  };
  if (options.maxTimeMs !== undefined) settings.maxTimeMs = options.maxTimeMs;
  const connect = duration(spec, 'connection-timeout');
  if (connect !== undefined) settings.connectTimeoutMs = connect;
  const retry = retries(spec) ?? options.retry;
  if (retry !== undefined && retry > 0) settings.retry = retry;
  // A version written in the request line wins over the flag and the profile, both ways.
  if (options.unixSocket !== undefined) settings.socketPath = options.unixSocket;
  if (spec.httpVersion === '2') settings.http2 = 'require';
  else if (spec.httpVersion === '1.1') settings.http2 = 'never';
  else if (spec.httpVersion === undefined && (options.http2 === true || profile?.http2 === true)) settings.http2 = 'prefer';
  return settings;
}
