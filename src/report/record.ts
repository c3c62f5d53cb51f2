import type { ReqflowError } from '../core/errors/index.js';
import type { TestResult } from '../core/model.js';
import { displayHeaders, displayUrl } from '../core/mask.js';
import type { EventPart, StreamEndPart, RequestView } from './reporter.js';

/**
 * The records of `-o json` (NDJSON), one shape for every kind of request; the JSON Schema is
 * docs/record.schema.json. Every record starts with the same envelope.
 */
interface Envelope {
  type: 'response' | 'event' | 'end' | 'error' | 'test';
  name: string;
  method: string;
  /** Secrets masked. */
  url: string;
}

export interface ResponseRecord extends Envelope {
  type: 'response';
  status: number;
  statusText: string;
  httpVersion: string;
  headers: Record<string, string | string[]>;
  /** Parsed JSON, text, a GraphQL `{data, errors}` result, or the filter's result. */
  body: unknown;
  /** The trailer fields sent after the body (HTTP/1.1 chunked, HTTP/2), when any came; masked as headers are. */
  trailers?: Record<string, string | string[]>;
  durationMs: number;
  size: number;
  request: { headers: Record<string, string | string[]> };
  /** Times the request was sent again before this answer (`--retry`), when it was. */
  retries?: number;
}

export interface EventRecord extends Envelope {
  type: 'event';
  status: number;
  seq: number;
  event?: string;
  id?: string;
  data: unknown;
}

export interface EndRecord extends Envelope {
  type: 'end';
  status: number;
  events: number;
  reason: StreamEndPart['reason'];
}

export interface ErrorRecord extends Envelope {
  type: 'error';
  error: { message: string; exitCode: number; hint?: string };
}

export interface TestRecord extends Envelope {
  type: 'test';
  test: TestResult;
}

export type JsonRecord = ResponseRecord | EventRecord | EndRecord | ErrorRecord | TestRecord;

type Source = Pick<RequestView, 'spec' | 'redact'>;

function envelope<T extends Envelope['type']>(type: T, ctx: Source): Envelope & { type: T } {
  return { type, name: ctx.spec.name, method: ctx.spec.method, url: displayUrl(ctx.spec.url, ctx.redact) };
}

export function responseRecord(ctx: Source & Pick<RequestView, 'response'>, body: unknown): ResponseRecord {
  const res = ctx.response;
  return {
    ...envelope('response', ctx),
    status: res?.status ?? 0,
    statusText: res?.statusText ?? '',
    httpVersion: res?.httpVersion ?? '1.1',
    headers: res ? displayHeaders(res.headers, ctx.redact) : {},
    body,
    ...(res?.trailers ? { trailers: displayHeaders(res.trailers, ctx.redact) } : {}),
    durationMs: Math.round((res?.durationMs ?? 0) * 10) / 10,
    size: res?.body?.length ?? res?.size ?? 0,
    request: { headers: displayHeaders(res?.cookieSent === undefined ? ctx.spec.headers : { ...ctx.spec.headers, Cookie: res.cookieSent }, ctx.redact) },
    ...(res?.retries ? { retries: res.retries } : {}),
  };
}

export function eventRecord(ctx: Source & Pick<RequestView, 'response'>, event: EventPart): EventRecord {
  const record: EventRecord = { ...envelope('event', ctx), status: ctx.response?.status ?? 0, seq: event.seq, data: event.value ?? null };
  if (event.event !== undefined) record.event = event.event;
  if (event.id !== undefined) record.id = event.id;
  return record;
}

export function endRecord(ctx: Source & Pick<RequestView, 'response'>, end: StreamEndPart): EndRecord {
  return { ...envelope('end', ctx), status: ctx.response?.status ?? 0, events: end.events, reason: end.reason };
}

/** A request that failed before or while its response arrived: every request is accounted for. */
export function errorRecord(ctx: Source, error: ReqflowError): ErrorRecord {
  const scrub = ctx.redact;
  return { ...envelope('error', ctx), error: { message: scrub(error.message), exitCode: error.exitCode, ...(error.hint ? { hint: scrub(error.hint) } : {}) } };
}

/** One check of a request, after its response; the message has secrets masked. */
export function testRecord(ctx: Source, test: TestResult): TestRecord {
  return { ...envelope('test', ctx), test: test.message === undefined ? test : { ...test, message: ctx.redact(test.message) } };
}
