import type { ReqflowError } from '../errors/index.js';
import { displayHeaders, displayUrl } from '../mask.js';
import type { RequestContext } from '../pipeline.js';

/** The machine-readable record of one request (`-o json`), one line each (NDJSON). */
export interface JsonRecord {
  name: string;
  method: string;
  url: string;
  status?: number;
  headers?: Record<string, string | string[]>;
  body?: unknown;
  durationMs?: number;
  size?: number;
  request: { headers: Record<string, string | string[]> };
  error?: { message: string; exitCode: number; hint?: string };
}

type RecordSource = Pick<RequestContext, 'spec'> & Partial<Pick<RequestContext, 'redact'>>;

/** What every record says about the request, secrets masked. */
export function baseRecord(ctx: RecordSource): JsonRecord {
  return {
    name: ctx.spec.name,
    method: ctx.spec.method,
    url: displayUrl(ctx.spec.url, ctx.redact),
    request: { headers: displayHeaders(ctx.spec.headers, ctx.redact) },
  };
}

/** The record of a request that failed before it had a response: every request is accounted for. */
export function errorRecord(ctx: RecordSource, error: ReqflowError, scrub: (text: string) => string): JsonRecord {
  return {
    ...baseRecord(ctx),
    error: { message: scrub(error.message), exitCode: error.exitCode, ...(error.hint ? { hint: scrub(error.hint) } : {}) },
  };
}
