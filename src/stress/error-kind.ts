/**
 * Why a stress request failed, in a few kinds a load test is read by: the network error
 * (refused, reset, DNS, timeout, TLS), the status class, or its checks.
 */
import { ExitCode } from '../core/errors/index.js';
import type { RequestOutcome } from '../report/reporter.js';

export type ErrorKind = 'http_4xx' | 'http_5xx' | 'check_failed' | 'timeout' | 'refused' | 'reset' | 'dns' | 'tls' | 'network' | 'variable' | 'auth' | 'other';

/** How the table names each kind. */
export const KIND_LABELS: Record<ErrorKind, string> = {
  http_4xx: 'HTTP 4xx',
  http_5xx: 'HTTP 5xx',
  check_failed: 'failed checks',
  timeout: 'timeouts',
  refused: 'connection refused',
  reset: 'connection reset',
  dns: 'DNS failures',
  tls: 'TLS errors',
  network: 'other network errors',
  variable: 'unresolved variables',
  auth: 'auth flow errors',
  other: 'other errors',
};

const NETWORK_CODES: Record<string, ErrorKind> = {
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  ERR_STREAM_PREMATURE_CLOSE: 'reset',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NONAME: 'dns',
  ETIMEDOUT: 'timeout',
  ESOCKETTIMEDOUT: 'timeout',
  REQFLOW_TIMEOUT: 'timeout',
  REQFLOW_CONNECT_TIMEOUT: 'timeout',
};

/** What a request's end says, from the loop's outcome or a replayed exchange (src/stress/replay/). */
export type CountedOutcome = Pick<RequestOutcome, 'exitCode' | 'error' | 'tests'> & { response?: { status: number } };

/** The kind of a failed request, or undefined for one that passed. */
export function errorKind(outcome: CountedOutcome): ErrorKind | undefined {
  const { error } = outcome;
  if (error) {
    if (error.exitCode === ExitCode.tls) return 'tls';
    if (error.exitCode === ExitCode.variable) return 'variable';
    if (error.exitCode === ExitCode.auth) return 'auth';
    if (error.exitCode !== ExitCode.network) return 'other';
    const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
    return (code !== undefined ? NETWORK_CODES[code] : undefined) ?? 'network';
  }
  if (outcome.exitCode === ExitCode.ok) return undefined;
  if (outcome.tests?.some((test) => !test.passed)) return 'check_failed';
  const status = outcome.response?.status ?? 0;
  return status >= 500 ? 'http_5xx' : status >= 400 ? 'http_4xx' : 'other';
}
