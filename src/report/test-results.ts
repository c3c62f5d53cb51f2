/**
 * What `reqflow test` found, kept for the reports written at the end (JUnit, TAP, JSON, HTML).
 * Secrets are already masked in every text here; bodies are kept only for requests that did
 * not pass, cut to {@link KEPT_BODY_BYTES}.
 */
import type { TestResult } from '../core/model.js';

/** How much of a failed request's bodies a report shows. */
export const KEPT_BODY_BYTES = 64 * 1024;

/** Milliseconds of each phase of a request, where it was measured; `total` always is. */
export interface Timings {
  dns?: number;
  connect?: number;
  tls?: number;
  /** From sending (connecting included) to the response headers. */
  firstByte?: number;
  /** From the response headers to the body's last byte. */
  download?: number;
  /**
   * After the body: response handlers and scripts (the script worker's start-up included),
   * captures, checks, saving the session.
   */
  afterBody?: number;
  /** From sending to the end of the request's work. */
  total: number;
}

export interface RequestResult {
  name: string;
  method: string;
  /** Secrets masked. */
  url: string;
  /** Line of the request line in its file. */
  line: number;
  /** The request's own file when it is not the file being run (a `# @depends` file), as shown. */
  file?: string;
  status?: number;
  timings: Timings;
  tests: TestResult[];
  /** The request failed before or while its response arrived (network, TLS, variables, a pre-request script). */
  error?: { message: string; exitCode: number; hint?: string };
  /** 0 passed; 1 a check failed or a response ≥ 400; else the error's exit code. */
  exitCode: number;
  /** For a request that did not pass: what was sent and what came back (masked, bodies cut). */
  exchange?: {
    request: { headers: Record<string, string | string[]>; body?: string };
    response?: { headers: Record<string, string | string[]>; body?: string };
  };
}

export interface FileResult {
  /** As the user named it (relative to the working folder). */
  file: string;
  durationMs: number;
  requests: RequestResult[];
  /** The file could not be run at all (it does not parse). */
  error?: { message: string; exitCode: number; hint?: string };
}

export interface RunResult {
  /** ISO 8601. */
  startedAt: string;
  durationMs: number;
  files: FileResult[];
}

/** Counts for a summary line: requests, checks, and how they ended. */
export interface Totals {
  requests: number;
  passed: number;
  failed: number;
  errors: number;
  tests: number;
  testsFailed: number;
}

export function totalsOf(run: RunResult): Totals {
  const totals: Totals = { requests: 0, passed: 0, failed: 0, errors: 0, tests: 0, testsFailed: 0 };
  for (const file of run.files) {
    if (file.error) totals.errors++;
    for (const request of file.requests) {
      totals.requests++;
      if (request.error) totals.errors++;
      else if (request.exitCode === 0) totals.passed++;
      else totals.failed++;
      totals.tests += request.tests.length;
      totals.testsFailed += request.tests.filter((test) => !test.passed).length;
    }
  }
  return totals;
}
