/**
 * The reporting layer's one interface. The pipeline feeds every reporter the same facts in the
 * same order — request start, response head, body (or stream events and the stream's end), the
 * request's outcome, the run's end — and each reporter decides what to show: `pretty`, `json`
 * and `raw` write to the terminal or a pipe, the TUI's response pane draws them, test reports
 * (JUnit, TAP, HTML) collect them. A reporter never applies the filter: {@link ReportFeed} does,
 * once, before handing values over.
 */
import type { ReqflowError } from '../core/errors/index.js';
import type { OutputSink, RequestSpec, ResponseInfo, RunOptions, TestResult } from '../core/model.js';

/**
 * What the reporting layer sees of a request: the part of the render stage's context it
 * needs (the pipeline's `ResponseView` is one), so that this layer depends on the data model
 * only, never on the pipeline that feeds it.
 */
export interface RequestView {
  spec: RequestSpec;
  response?: ResponseInfo;
  readonly options: RunOptions;
  /** Where reporters of the terminal write (stdout/stderr, or the TUI's pane). */
  readonly output: OutputSink;
  state: Record<string, unknown>;
  readonly signal: AbortSignal;
  /** Set once the response has been shown. */
  rendered?: boolean;
  /** Set when the response is a failure beyond its status (GraphQL `errors`). */
  failed?: boolean;
  readBody(): Promise<Buffer>;
  warn(message: string): void;
  redact(text: string): string;
}

/** A request whose response is in: what reporters receive from the render stage on. */
export interface ResponseView extends RequestView {
  response: ResponseInfo;
}

/** The body of a plain (non-streaming) response, as the reporter receives it. */
export type BodyPart =
  /** No filter: the reporter reads `ctx.response` itself (stream it, or `ctx.readBody()`). */
  | { kind: 'stream' }
  /** A filter's result (`--filter`, `# @filter`), or a JSON document decoded by a plugin. */
  | { kind: 'value'; value: unknown; filtered: boolean }
  /** A GraphQL result: `value` is the result (or the filter's result), `bytes` the body as received. */
  | { kind: 'graphql'; result: GraphqlResultShape; value: unknown; filtered: boolean; bytes: Buffer }
  /** The body as text, no filter applied (a plugin that had to read it first). */
  | { kind: 'text'; bytes: Buffer };

/** `{ data, errors }` of a GraphQL response, as the reporters need it. */
export interface GraphqlResultShape {
  data?: unknown;
  errors?: GraphqlErrorShape[];
}

/** One entry of a GraphQL `errors` array (fields as servers send them: check before use). */
export interface GraphqlErrorShape {
  message?: unknown;
  locations?: Array<{ line?: unknown; column?: unknown }>;
  path?: Array<string | number>;
  extensions?: Record<string, unknown>;
}

/** One event of a stream (server-sent event, GraphQL subscription result), numbered from 1. */
export interface EventPart {
  seq: number;
  event?: string;
  id?: string;
  /** The data as sent. */
  raw: string;
  /** Parsed JSON data, the filter's result, or the text when it is not JSON. */
  value: unknown;
  /** True when `value` is JSON (parsed, or the filter's result). */
  json: boolean;
  /** True when the filter applied to this event. */
  filtered: boolean;
  /** For GraphQL results: the result, for readable errors. */
  graphql?: GraphqlResultShape;
}

/** Why a stream stopped: the source ended, a limit stopped it, or the user did (Ctrl-C, Esc). */
export type StreamEnd = 'complete' | 'max-events' | 'timeout' | 'user';

export interface StreamEndPart {
  reason: StreamEnd;
  events: number;
}

/** How one request ended. */
export interface RequestOutcome {
  spec: RequestSpec;
  /** The request as the stages left it (auth headers, final body): what was sent, or would have been. */
  sent?: RequestSpec;
  /** The response, when there was one (also for a request that failed while its body arrived). */
  response?: ResponseInfo;
  error?: ReqflowError;
  /** 0; 1 for a response ≥ 400 or GraphQL errors; else the error's exit code. */
  exitCode: number;
  /** The user ended a stream (Ctrl-C): not a failure. */
  streamEndedByUser?: boolean;
  /** Results of the request's checks (`??` lines, `client.test`, restcli expectations), in order. */
  tests?: TestResult[];
}

/** What a run did, for the closing line of a report. */
export interface RunSummary {
  /** Requests that ran (on their turn; not those run first for another). */
  requests: number;
  /** Of those, the ones that ended in an error (network, TLS, a variable, ...), and those whose response failed. */
  errors: number;
  failures: number;
  exitCode: number;
}

/**
 * Implement the methods you need; each is called in this order for every request:
 * `requestStart` → `responseHead` → (`body` | `event`… `streamEnd`) → `requestEnd`, and
 * `runEnd` once. A request that fails early skips the middle. Methods may return a promise
 * (the pipeline waits: back-pressure reaches the sender).
 */
export interface Reporter {
  requestStart?(spec: RequestSpec): void;
  /** Status and headers are in (for streams, before the first event). */
  responseHead?(ctx: ResponseView): void | Promise<void>;
  /** A plain response's body (see {@link BodyPart}). Called at most once per request. */
  body?(ctx: ResponseView, body: BodyPart): void | Promise<void>;
  /** One stream event, the moment it arrives. */
  event?(ctx: ResponseView, event: EventPart): void | Promise<void>;
  streamEnd?(ctx: ResponseView, end: StreamEndPart): void | Promise<void>;
  /** The request is done: passed, failed, or ended with an error (then `outcome.error`). */
  requestEnd?(outcome: RequestOutcome, ctx: RequestView): void | Promise<void>;
  runEnd?(summary: RunSummary): void | Promise<void>;
}

/**
 * What render-stage handlers (the core's, GraphQL's, SSE's, a third party's) hand responses
 * to. It applies the filter — the only place that does — and passes the result to the run's
 * reporter.
 */
export interface ReportFeed {
  /** A plain response: head, then its body (filtered when a filter is active). */
  response(ctx: ResponseView, options?: { filter?: boolean }): Promise<void>;
  /** A GraphQL result (the body already read as `bytes`). */
  graphql(ctx: ResponseView, result: GraphqlResultShape, bytes: Buffer): Promise<void>;
  /**
   * A stream: head, then each event as it arrives until the source ends, `--max-events`,
   * `--stream-timeout` or the user stops it; `close` releases the source in every case.
   * `toEvent` turns a source event into what is reported, or returns `false` for an event that
   * ends the stream (GraphQL's `complete`) and `undefined` for one to skip.
   */
  stream(ctx: ResponseView, source: AsyncIterable<{ event?: string; id?: string; data: string }>, close: () => void, toEvent?: (event: { event?: string; id?: string; data: string }) => EventSeed | false | undefined): Promise<StreamEndPart>;
  /** The run's reporter, for plugins that report something of their own. */
  readonly reporter: Reporter;
}

/** What a stream plugin hands the feed for one event before filtering. */
export interface EventSeed {
  event?: string;
  id?: string;
  raw: string;
  /** Parsed JSON, when the data is JSON. */
  json?: { value: unknown };
  graphql?: GraphqlResultShape;
}
