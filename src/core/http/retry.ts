/**
 * `--retry N` / `# @retry N`: a request that met a connection failure (refused, reset, timed
 * out) or a `429`/`503` answer is sent again, up to N more times, after an exponential
 * back-off with jitter — or after the server's `Retry-After` (seconds or a date, at most a
 * minute). Only idempotent methods (RFC 9110: GET, HEAD, OPTIONS, PUT, DELETE, TRACE) are
 * retried: a POST could be applied twice. `--retry-all` lifts that.
 */
import { NetworkError } from '../errors/index.js';
import type { ResponseInfo } from '../model.js';
import type { AbortHooks } from '../abort-hooks.js';
import { isIdempotent } from './idempotent.js';

export interface RetryPolicy {
  /** How many times a request may be sent again. */
  retries: number;
  /** `--retry-all`: non-idempotent methods too. */
  all: boolean;
  /** Told before each wait (for `-v`). */
  onRetry?(attempt: number, of: number, reason: string, waitMs: number): void;
}

const RETRY_STATUS = new Set([429, 503]);
const BASE_MS = 250;
const MAX_BACKOFF_MS = 10_000;
const MAX_RETRY_AFTER_MS = 60_000;

/** `Retry-After: 3` or an HTTP date, in ms from now (never negative, at most a minute). */
function retryAfter(response: ResponseInfo, now = Date.now()): number | undefined {
  const raw = response.headers['retry-after'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined) return undefined;
  const ms = /^\s*\d+\s*$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS) : undefined;
}

function backoff(attempt: number, random: () => number): number {
  const base = Math.min(BASE_MS * 2 ** (attempt - 1), MAX_BACKOFF_MS);
  return Math.round(base / 2 + random() * (base / 2)); // "equal jitter"
}

function wait(ms: number, abort: AbortHooks | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    const stop = abort?.whenAborted(() => {
      clearTimeout(timer);
      reject(new NetworkError('cancelled while waiting to retry'));
    });
    function done(): void {
      stop?.();
      resolve();
    }
  });
}

/** Sends with `send` until a response that is not worth a retry, or the retries run out. */
export async function withRetries(method: string, policy: RetryPolicy, abort: AbortHooks | undefined, send: () => Promise<ResponseInfo>, random: () => number = Math.random): Promise<ResponseInfo> {
  const allowed = policy.all || isIdempotent(method) ? policy.retries : 0;
  for (let attempt = 1; ; attempt++) {
    let response: ResponseInfo;
    try {
      response = await send();
    } catch (error) {
      if (!(error instanceof NetworkError) || attempt > allowed || abort?.signal.aborted) throw error;
      const waitMs = backoff(attempt, random);
      policy.onRetry?.(attempt, allowed, error.message, waitMs);
      await wait(waitMs, abort);
      continue;
    }
    if (!RETRY_STATUS.has(response.status) || attempt > allowed) {
      if (attempt > 1) response.retries = attempt - 1;
      return response;
    }
    response.stream?.destroy(); // this answer is not shown: free the connection
    const waitMs = retryAfter(response) ?? backoff(attempt, random);
    policy.onRetry?.(attempt, allowed, `${response.status} ${response.statusText}`.trim(), waitMs);
    await wait(waitMs, abort);
  }
}
