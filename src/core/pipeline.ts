/**
 * The whole extension surface of reqflow in one file: the six stages, the context that flows
 * through them and the shape of a plugin. A plugin author needs nothing but this file.
 *
 * One request flows through the stages in this order:
 *
 *   parse → substitute → auth → transform → send → render
 *
 * `parse` turns a file's text into request specs (once per file); the five others run once per
 * request, each receiving the same {@link RequestContext} and returning it (changed or not).
 */
import type { Readable } from 'node:stream';
import type { ReqflowError } from './errors/index.js';

export const STAGES = ['parse', 'substitute', 'auth', 'transform', 'send', 'render'] as const;
export type Stage = (typeof STAGES)[number];
export type RequestStage = Exclude<Stage, 'parse'>;
export const REQUEST_STAGES: readonly RequestStage[] = ['substitute', 'auth', 'transform', 'send', 'render'];

/** TLS settings of a profile or a request. Paths are resolved against {@link TlsSettings.baseDir}. */
export interface TlsSettings {
  /** Client certificate (PEM). */
  certFile?: string;
  /** Client private key (PEM), possibly encrypted (see `passphrase`). */
  keyFile?: string;
  /** Extra certificate authorities to trust for this request (PEM). */
  caFile?: string;
  /** A PKCS#12 bundle holding the client certificate and key. */
  pfxFile?: string;
  /** Passphrase of an encrypted key or of the PKCS#12 bundle. Usually `{{variable}}`. */
  passphrase?: string;
  /** Skip server certificate verification (always warned about on stderr). */
  insecureSkipVerify?: boolean;
}

/** What Node's `https` needs for one TLS setting (file contents, not paths). */
export interface TlsConnectionOptions {
  cert?: Buffer;
  key?: Buffer;
  ca?: Buffer[];
  pfx?: Buffer;
  passphrase?: string;
  /** `false` only when `insecureSkipVerify` / `--insecure` asked for it (always warned). */
  rejectUnauthorized?: boolean;
}

/** Where a value came from, for errors that point at the user's text. */
export interface SourceLocation {
  file: string;
  line: number;
}

/**
 * One request as written in a request file, before and after substitution.
 * Stages change it in place (or return a changed copy); `send` puts it on the wire.
 */
export interface RequestSpec {
  /** `### name` in HTTP files, `name` in YAML/JSON; `request-N` (1-based) when absent. */
  name: string;
  /** Upper-case method token (`GET`, `POST`, `PROPFIND`, ...). */
  method: string;
  url: string;
  /** Header names as written; look them up with `getHeader` (case-insensitive). */
  headers: Record<string, string>;
  /** The body text, if any. YAML/JSON object bodies arrive here already serialised as JSON. */
  body?: string;
  /**
   * Every `# @key value` annotation of an HTTP request (and the matching YAML/JSON fields),
   * including ones no built-in knows: `protocol`, `filter`, `streaming`, `auth`, `operation`,
   * `variables`, `transport`, `tls.certFile`, ... Values are raw text.
   */
  annotations: Record<string, string>;
  /** Per-request TLS settings; they override the profile's field by field. */
  tls?: TlsSettings;
  /** GraphQL variables from YAML/JSON `variables` (HTTP files use `# @variables {json}`). */
  graphqlVariables?: Record<string, unknown>;
  /** Where the request starts, for error messages. */
  source: SourceLocation;
}

/** A profile from `.profiles.json`, validated. */
export interface Profile {
  name: string;
  /** Variable values: a string (may be `$(shell command)`), or an interactive prompt. */
  variables: Record<string, ProfileVariable>;
  /** Headers sent with every request of the profile (a request's own header of the same name wins). */
  headers: Record<string, string>;
  oauth?: OAuthSettings;
  tls?: TlsSettings;
  /** Default authentication method, e.g. `{ "type": "bearer" }`; other keys belong to the method. */
  auth?: AuthSettings;
  /** The folder of the profiles file: relative TLS paths in the profile resolve against it. */
  baseDir: string;
}

export type ProfileVariable = string | { value: string; interactive?: boolean; secret?: boolean };

export interface OAuthSettings {
  authUrl?: string;
  tokenUrl?: string;
  clientId: string;
  clientSecret?: string;
  scope?: string;
  redirectUrl?: string;
  deviceUrl?: string;
  issuer?: string;
  grant?: 'authorization_code' | 'client_credentials' | 'device_code';
  [key: string]: unknown;
}

export interface AuthSettings {
  type: string;
  [key: string]: unknown;
}

/** What `run` was asked to do. Plugins read it; only the core sets it. */
export interface RunOptions {
  output: 'pretty' | 'json' | 'raw';
  verbose: boolean;
  /** JMESPath from `--filter` (wins over `# @filter`). */
  filter?: string;
  timeoutMs: number;
  extract: boolean;
  insecure: boolean;
  followRedirects: boolean;
  maxSizeBytes: number;
  maxEvents?: number;
  streamTimeoutMs?: number;
  color: boolean;
  /** stdout is a terminal (status line, colours). */
  isTerminal: boolean;
  /** stdin is a terminal (interactive prompts allowed). */
  interactive: boolean;
  debug: boolean;
  /** Values from `-e name=value`. */
  cliVariables: Record<string, string>;
}

/** A response, once `send` has produced one. */
export interface ResponseInfo {
  status: number;
  statusText: string;
  httpVersion: string;
  /** Lower-case header names. */
  headers: Record<string, string | string[]>;
  /**
   * The body as it arrives. Exactly one reader may consume it; use `ctx.readBody()` to get the
   * whole body (bounded by `--max-size`), or pipe it when the whole document is not needed.
   */
  stream?: Readable;
  /** The whole body, once something has read it. */
  body?: Buffer;
  /** For streaming requests: the events, in arrival order, as they come. */
  events?: AsyncIterable<StreamEvent>;
  /** Milliseconds from sending to the response headers. */
  durationMs: number;
  /** Body bytes received so far. */
  size: number;
}

/** What a plugin passes to `ctx.http.send`. */
export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Defaults to the request's `ctx.tlsOptions`. */
  tlsOptions?: TlsConnectionOptions;
  /** Streaming responses: no time-out between chunks once the headers are in. */
  streaming?: boolean;
}

export interface HttpClient {
  /** Resolves when the response headers arrive; the body stays a stream (`response.stream`). */
  send(request: HttpRequest): Promise<ResponseInfo>;
}

/** One server-sent event (or one GraphQL subscription result). */
export interface StreamEvent {
  event?: string;
  id?: string;
  data: string;
}

/** Session of one profile: values set by responses and OAuth, kept between runs. */
export interface Session {
  readonly profile: string;
  get(name: string): string | undefined;
  set(name: string, value: string): void;
  delete(name: string): void;
  /** Structured entries (OAuth tokens with expiry, ...) keyed by plugin. */
  getData<T = unknown>(key: string): T | undefined;
  setData(key: string, value: unknown): void;
  /** Names of plain session variables. */
  names(): string[];
  /** Writes the session file atomically (0600) if anything changed. */
  save(): Promise<void>;
}

/** Writes what the user sees. The CLI writes to stdout/stderr; the TUI to its panes. */
export interface OutputSink {
  /** The main output (stdout). */
  out(chunk: string | Uint8Array): void;
  /** Diagnostics: warnings, status lines for piped output (stderr). */
  err(line: string): void;
  /** A writable for streaming bodies (stdout), honouring back-pressure. */
  stream?: NodeJS.WritableStream;
}

/** Resolves `{{...}}` templates for a request. */
export interface VariableResolver {
  /** The value of a variable, or an exit-3 error naming it. Shell values run once per request. */
  get(name: string): Promise<string>;
  /** True when the variable is defined anywhere (`-e`, session, profile). */
  has(name: string): boolean;
  /** Substitutes every `{{...}}` in a text. */
  expand(text: string): Promise<string>;
  /** Where a variable's value comes from: `-e`, `session`, `profile`, or undefined. */
  sourceOf(name: string): 'cli' | 'session' | 'profile' | undefined;
}

/**
 * What every request-stage handler receives. Change `spec` (before `send`) or `response`
 * (after), read the rest.
 */
export interface RequestContext {
  spec: RequestSpec;
  /** Absolute path of the request file. */
  file: string;
  /** Folder of the request file: relative paths in the request resolve against it. */
  baseDir: string;
  profile: Profile;
  session: Session;
  options: RunOptions;
  variables: VariableResolver;
  output: OutputSink;
  /** TLS settings after merging profile and request (set by the core before `auth`). */
  tls: TlsSettings;
  /**
   * Node TLS options for the connection, filled in the `auth` stage (auth-mtls reads the files
   * named by `tls`). The core keeps one keep-alive agent per distinct set of options.
   */
  tlsOptions: TlsConnectionOptions;
  /** Sends HTTP over the run's keep-alive agents with the run's time-out, redirects and `tlsOptions`. */
  http: HttpClient;
  /** Set by `send`. */
  response?: ResponseInfo;
  /**
   * Set by the first `render` handler that showed the response; later render handlers skip.
   * (GraphQL and SSE render before the built-in renderers.)
   */
  rendered?: boolean;
  /** Set by a render handler when the response is a failure beyond its status (GraphQL `errors`): exit 1. */
  failed?: boolean;
  /** Scratch space shared by the stages of this request, keyed by plugin name. */
  state: Record<string, unknown>;
  /** Fires when the user cancels (Ctrl-C, Esc in the TUI). Long-running stages must honour it. */
  signal: AbortSignal;
  /** Prints a warning line on stderr (or the TUI status bar). */
  warn(message: string): void;
  /** Reads the whole response body, at most `--max-size` bytes. */
  readBody(): Promise<Buffer>;
}

/** What `parse` handlers receive: one file's text; they fill `requests`. */
export interface ParseContext {
  file: string;
  text: string;
  /** Lower-case extension without the dot (`http`, `rest`, `yaml`, `yml`, `json`). */
  extension: string;
  requests: RequestSpec[];
}

export type Awaitable<T> = T | Promise<T>;
export type RequestHandler = (ctx: RequestContext) => Awaitable<RequestContext | void>;
export type ParseHandler = (ctx: ParseContext) => Awaitable<ParseContext | void>;

export interface StageHandlers {
  /** Turn file text into request specs. Runs once per file. */
  parse?: ParseHandler;
  /** Resolve templates (the core does `{{var}}` first). */
  substitute?: RequestHandler;
  /** Add headers, TLS options or query parameters that authenticate the request. */
  auth?: RequestHandler;
  /** Shape body and headers for the wire (GraphQL wraps the query in JSON here). */
  transform?: RequestHandler;
  /** Put the request on the wire and set `ctx.response`. The first handler to set it wins. */
  send?: RequestHandler;
  /** Show the response. */
  render?: RequestHandler;
}

/**
 * A plugin: a name, some stage handlers and a rule saying which requests it applies to.
 *
 * A plugin applies to a request when any of these hold:
 * - it names an auth method (`authName`) and the request says `# @auth <authName>` or the
 *   profile's `auth.type` is `<authName>`;
 * - it lists file extensions (`extensions`) and the file has one of them (parse stage);
 * - its `appliesTo(ctx)` returns true.
 * A plugin with none of the three applies to every request.
 *
 * @example
 * const plugin: Plugin = {
 *   name: 'auth-team',
 *   authName: 'team',
 *   stages: { auth: (ctx) => { ctx.spec.headers['X-Team'] = 'blue'; return ctx; } },
 * };
 */
export interface Plugin {
  /** Unique; shown in errors (`plugin "auth-hmac" failed in the auth stage: ...`). */
  name: string;
  stages: StageHandlers;
  /** The auth method this plugin implements (`# @auth <authName>`, profile `auth.type`). */
  authName?: string;
  /** File extensions (without the dot) handled by this plugin's `parse`. */
  extensions?: string[];
  /** Custom applicability test; evaluated before each request stage. */
  appliesTo?(ctx: RequestContext): boolean;
  /** Run this plugin's handlers before those of the named plugins (same stage). */
  before?: string[];
  /** Run this plugin's handlers after those of the named plugins (same stage). */
  after?: string[];
}

/** The error type plugins throw for a clear, user-facing failure with an exit code. */
export type { ReqflowError };
