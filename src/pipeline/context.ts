/**
 * What each stage of the pipeline may read and what it adds. One object travels through all
 * of them (plugins change it in place); these types say, stage by stage, which of its fields
 * are there yet. `RequestContext` is the loosest view, valid in every request stage.
 *
 *   parse      ParseContext      file text → requests[]
 *   substitute SubstituteContext + spec resolved, tls merged
 *   auth       AuthContext       + tlsOptions, auth headers
 *   transform  TransformContext  body and headers shaped for the wire
 *   send       SendContext       + response (the first sender wins)
 *   render     RenderContext     response handed to the reporters (report)
 *   capture    CaptureContext    + capturedBody(): values taken from the response
 *   persist    PersistContext    + error, timing: session, cookies, history written (also on failure)
 */
import type { ReqflowError } from '../core/errors/index.js';
import type { RunChain } from '../chain/chain.js';
import type { ScriptGlobals } from '../core/script-globals.js';
import type { BodyPiece, HttpClient, OutputSink, Profile, RequestSpec, ResponseInfo, RunOptions, Session, TestResult, TlsConnectionOptions, TlsSettings, VariableResolver } from '../core/model.js';
import type { ReportFeed } from '../report/reporter.js';
import type { HistoryLog } from '../history/log.js';
import type { ProxyRules } from '../core/http/proxy.js';

/** What every request stage sees: the run's settings and services, read-only. */
export interface BaseContext {
  /** This request (a copy: changes stay within this request). */
  spec: RequestSpec;
  /** Absolute path of the request file. */
  readonly file: string;
  /** Folder of the request file: relative paths in the request resolve against it. */
  readonly baseDir: string;
  /** The active profile (read-only). */
  readonly profile: Profile;
  /** The profile's session: read and write values that must outlive the request. */
  readonly session: Session;
  /** What `run` was asked to do (read-only). */
  readonly options: RunOptions;
  /** Resolves `{{...}}` and reads variables. */
  readonly variables: VariableResolver;
  /** stdout/stderr, or the TUI's panes. Plugins that print write here, never to `process.stdout`. */
  readonly output: OutputSink;
  /** TLS settings after merging profile and request (paths absolute once `substitute` ran). */
  tls: TlsSettings;
  /** Node TLS options for the connection, filled in the `auth` stage (auth-mtls reads the files). */
  tlsOptions: TlsConnectionOptions;
  /** Sends HTTP over the run's keep-alive agents with the run's time-out, redirects and `tlsOptions`. */
  readonly http: HttpClient;
  /** Set by `send`; undefined before. */
  response?: ResponseInfo;
  /**
   * A body with file includes as `substitute` read it: its pieces, the files among them with
   * their absolute paths. It describes `spec.body` only while that is still `body` (a later
   * stage may replace it); `--as curl` names the files instead of copying their bytes.
   */
  bodyPieces?: { body: Buffer; pieces: readonly BodyPiece[] };
  /** Scratch space shared by the stages of this request, keyed by plugin name. */
  state: Record<string, unknown>;
  /** Scratch space shared by every request of the run (caches, warn-once flags), keyed by plugin name. */
  readonly runState: Record<string, unknown>;
  /** Fires when the user cancels (Ctrl-C, Esc in the TUI). Long-running stages must honour it. */
  readonly signal: AbortSignal;
  /** Prints a warning line on stderr (or the TUI status bar), with known secrets masked. */
  warn(message: string): void;
  /** Reads the whole response body, at most `--max-size` bytes (empty before `send`). */
  readBody(): Promise<Buffer>;
  /** Replaces every secret value the run knows with `•••`. Apply it to anything shown besides the body. */
  redact(text: string): string;
  /** The run's chaining state (named responses, captured values), when the run chains. */
  readonly chain?: RunChain;
  /** The run's history (absent with `--no-history` or a profile's `"history": false`); the `history` hook adds each sent request. */
  readonly history?: HistoryLog;
  /** Script globals kept beyond the file (earlier files of the invocation, earlier runs): what scripts' `client.global` reads and changes besides the run's own. */
  readonly globals?: ScriptGlobals;
  /** `request.variables` of the request's scripts: resolved before every other source but `-e`. */
  readonly requestVariables?: Map<string, string>;
  /** Results of the request's checks (`??`, `client.test`, expectations); one that failed makes the request fail (exit 1). */
  tests?: TestResult[];
  /** Asks the user a yes/no question (terminal or TUI); absent or false without a terminal. */
  confirm?(question: string): Promise<boolean>;
  /**
   * Treats a value as secret for the rest of the run (shown as `•••` in every warning, error
   * and `-v` line). Use the `maskSecret(ctx, value)` helper: it works with hosts that lack it.
   */
  addSecret?(value: string): void;
  /** The headers the auth stage set (names lower-cased): credentials whatever their names, never sent to another origin on a redirect. */
  credentialHeaders?: ReadonlySet<string>;
  /** This request's own proxy rules in place of the run's (httpyac's `# @proxy URL`, `# @noProxy`: src/core/stages/request-proxy.ts). */
  proxy?: ProxyRules;
}

/** `substitute`: `{{...}}` resolved in URL, headers, body and TLS paths; profile headers merged in. */
export type SubstituteContext = BaseContext;

/** `auth`: URL, headers and body are final except for what `transform` does. Adds headers, query or `tlsOptions`. */
export type AuthContext = BaseContext;

/** `transform`: shapes body and headers for the wire (GraphQL wraps the query in JSON here). */
export type TransformContext = BaseContext;

/** `send`: sets `response`; the first handler to set it wins (later senders are skipped). */
export type SendContext = BaseContext;

/**
 * Every request stage's context, loosely typed (what third-party plugins written for any stage
 * receive). Render-stage fields are optional here.
 */
export interface RequestContext extends BaseContext {
  /** The run's reporting feed (render stage on). */
  report?: ReportFeed;
  /**
   * Set by the first `render` handler that showed the response; later render handlers skip.
   * (GraphQL and SSE render before the core's reporter hand-off; a third-party renderer that
   * wants to win says `before: ['core-report']`.)
   */
  rendered?: boolean;
  /** Set by a render handler when the response is a failure beyond its status (GraphQL `errors`): exit 1. */
  failed?: boolean;
}

/** `render`: the response is in; hand it to `report` (which filters it and feeds the reporters). */
export interface RenderContext extends RequestContext {
  response: ResponseInfo;
  report: ReportFeed;
}

/** The `capture` hook, after `render`: take values from the response for later requests. */
export interface CaptureContext extends RenderContext {
  /**
   * The body as received, when it is at most 1 MiB (kept while `render` streamed it, for the
   * requests a capture plugin applies to); undefined otherwise.
   */
  capturedBody(): Buffer | undefined;
}

/** The `persist` hook, last, also when the request failed: write what must outlive the run. */
export interface PersistContext extends RequestContext {
  /** The error that ended the request early, if any. */
  error?: ReqflowError;
  /**
   * Set when the request was sent: when (`startedAt`, epoch ms) and how long until its response
   * body was received and shown, or until the error that ended it (`durationMs`). Requests that
   * failed before sending (an unresolved variable) have none.
   */
  timing?: { startedAt: number; durationMs: number };
}

/** What `parse` handlers receive: one file's text; they fill `requests`. */
export interface ParseContext {
  /** The request file, as the user named it. */
  file: string;
  text: string;
  /** Lower-case extension without the dot (`http`, `rest`, `yaml`, `yml`, `json`, or one a plugin claims). */
  extension: string;
  /** Push the parsed requests here. The first parser that fills it wins. */
  requests: RequestSpec[];
  /**
   * Set when the requests need not be kept (`reqflow run`, `reqflow test`): a parser that can
   * build a request again hands each one here instead of to `requests`, and sets `reparse`.
   */
  visit?: (spec: RequestSpec) => void;
  /** Request `index` (0-based) built again, the same as the one `visit` saw. */
  reparse?: (index: number) => RequestSpec;
  /** Tells the user of something the parser left out (a block that is no request). */
  warn?: (message: string) => void;
}
