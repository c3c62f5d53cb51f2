/**
 * The data that flows through the pipeline: a request as written (`RequestSpec`), the profile
 * and session it runs with, what `run` was asked to do, and the response. Plain types, no
 * behaviour; the stages and their contexts are in `src/pipeline/`.
 */
import type { Agent } from 'node:http';
import type { Readable } from 'node:stream';
import type { RequestHeaders } from './headers.js';

/** TLS settings of a profile or a request. Relative paths resolve against the file that names them. */
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
  /** The request file, as the user named it. */
  file: string;
  /** 1-based line where the request starts. */
  line: number;
  /**
   * 0-based position of the request in its file, set when the file is parsed. With the file it
   * is the request's identity: the requests of a YAML or JSON file may share a line.
   */
  index?: number;
}

/**
 * One request as written in a request file. `parse` creates it; `substitute` resolves its
 * templates; `auth` and `transform` change it; `send` puts it on the wire.
 *
 * Every request gets its own copy: changing it never affects the next request of the file.
 */
export interface RequestSpec {
  /** `### name` in HTTP files, `name` in YAML/JSON; `request-N` (1-based) when absent. Picked with `-n NAME`. */
  name: string;
  /** Upper-case method token (`GET`, `POST`, `PROPFIND`, ...). */
  method: string;
  /**
   * False when `method` is a default the user did not write (a bare URL in an HTTP file, no
   * `method` field in YAML/JSON), so a plugin that changes it (GraphQL: always POST) knows
   * whether to warn. Absent means written.
   */
  methodWritten?: boolean;
  /**
   * The URL. Before `substitute` it may still hold `{{templates}}`; from `auth` on it is the
   * final URL, query string included.
   */
  url: string;
  /**
   * Header names keep the user's spelling. Look them up and set them with `getHeader` /
   * `setHeader` (exported by `reqflow`), which ignore case. From `substitute` on, the profile's
   * headers are merged in (a request's own header wins).
   *
   * @example
   * ```
   * import { setHeader } from 'reqflow';
   * setHeader(ctx.spec.headers, 'X-Team', 'blue');
   * ```
   */
  headers: RequestHeaders;
  /**
   * The body. As parsed: text that may hold `{{templates}}` (YAML/JSON object bodies arrive
   * serialised as JSON). From `auth` on: what goes on the wire — text, or bytes when the body
   * includes files (`< ./file`).
   */
  body?: string | Buffer;
  /**
   * A body written with file includes (`< ./file`, `<@ ./file`, `<@latin1 ./file`), in order;
   * `substitute` reads the files (relative to the request file) into `body`.
   */
  bodyParts?: BodyPart[];
  /** Line ending of the body on the wire: `crlf` for multipart bodies (RFC 7578). */
  bodyLineEnding?: 'crlf';
  /** File variables (`@name = value`) defined above this request, later definitions winning. */
  fileVariables?: Readonly<Record<string, string>>;
  /** `# @prompt name [description]`: values asked for before the request is sent. */
  prompts?: Array<{ name: string; description?: string }>;
  /**
   * Every `# @key value` annotation of an HTTP request (and the matching YAML/JSON fields),
   * including ones no built-in knows, so a plugin can define its own: `protocol`, `filter`,
   * `streaming`, `auth`, `operation`, `variables`, `tls.certFile`, `my-plugin.option`, ...
   * Values are raw text (no `{{templates}}` resolved).
   *
   * @example
   * ```
   * # @auth hmac
   * # @hmac.header X-Sig
   * GET https://api.example.com/orders
   * ```
   * gives `{ auth: 'hmac', 'hmac.header': 'X-Sig' }`.
   */
  annotations: Record<string, string>;
  /** Per-request TLS settings; they override the profile's field by field. */
  tls?: TlsSettings;
  /** GraphQL variables from YAML/JSON `variables` (HTTP files use `# @variables {json}`). */
  graphqlVariables?: Record<string, unknown>;
  /** Checks and chaining written with the request (`??` lines, scripts, `# @capture`, `# @ref`): see {@link ChainSpec}. */
  chain?: ChainSpec;
  /**
   * The HTTP version the request asks for: `2` from `GET url HTTP/2` (sent over HTTP/2 or not
   * at all), `1.1` from `HTTP/1.1` (never HTTP/2, whatever `--http2` says). Absent: HTTP/1.1,
   * or HTTP/2 where the server agrees when `--http2` or the profile's `http2` asks for it.
   */
  httpVersion?: '1.1' | '2';
  /** A WebSocket request's messages when the file gives them one by one (restcli `.ws` files). */
  webSocket?: { steps: WebSocketStep[]; subprotocol?: string };
  /** httpyac's `# @loop for N` / `for NAME of VALUES`, with the annotation's line (src/pipeline/loop-passes.ts runs it). */
  loop?: { line: number; count: string | undefined; item: string | undefined; values: string | undefined };
  /**
   * One pass of httpyac's `# @loop`: `$index` and the item's name (objects also by their dotted
   * names), taken literally and before every other source (src/pipeline/loop-passes.ts).
   */
  loopVariables?: Readonly<Record<string, string>>;
  /** Where the request starts, for error messages. */
  source: SourceLocation;
}

/**
 * One step of a WebSocket request: a message to send (`{{templates}}` resolved when it goes;
 * `json` ones must be JSON then; `binary` ones go as a binary frame), or a wait for the next
 * message from the server (at most `timeoutMs` when given; JetBrains' `=== wait-for-server` counts
 * any message not yet waited for, restcli's `<` only one that came after the last message sent).
 */
export type WebSocketStep =
  /** `parts`: a message with included files (`< ./msg.bin`), read when it is sent (`send` is then ''). */
  | { send: string; parts?: BodyPart[]; binary?: boolean; json?: boolean; name?: string; line?: number }
  | { wait: true; timeoutMs?: number; name?: string; /** Only a message that came after the last one sent counts (restcli's `<`). */ afterSend?: true };

/**
 * What a request asks of the run besides being sent: assertions, captures, scripts and the
 * requests it depends on (`src/chain/`). Every entry keeps its line for messages and reports.
 */
export interface ChainSpec {
  /** httpyac `?? status == 200` lines: the text after `??`. */
  assertions?: Array<{ text: string; line: number }>;
  /** `# @capture name = expression` (and restcli's `# @extract name expression`). */
  captures?: Array<{ name: string; expression: string; line: number; syntax: 'capture' | 'jmespath' }>;
  /** JetBrains scripts: `< {% … %}` before the request, `> {% … %}` after it; inline code or a file path. */
  scripts?: ScriptSpec[];
  /** `# @ref name` (run it first unless it ran already) and `# @forceRef name` (always run it first). */
  refs?: Array<{ name: string; force: boolean; line: number }>;
  /** httpyac `# @import other.http`: files whose named requests may be referred to (run only then). */
  imports?: Array<{ path: string; line: number }>;
  /** restcli `# @depends other.http` / `dependsOn`: files whose requests run first, once per run. */
  depends?: Array<{ path: string; line: number }>;
}

/** The result of one check: a `??` line, a `client.test`, a restcli expectation. */
export interface TestResult {
  /** `status == 200`, the `client.test` name, `expectedStatusCodes 200,2xx`. */
  name: string;
  passed: boolean;
  /** Why it failed: expected against actual, or the error. */
  message?: string;
  /** Where it is written. */
  file: string;
  line: number;
  /** It could not be evaluated (a script threw, a JSONPath was invalid) rather than being false. */
  error?: boolean;
}

export interface ScriptSpec {
  phase: 'pre' | 'post';
  /** Inline code (`{% … %}`), or absent when the script is a file. */
  code?: string;
  /** `> ./check.js`: relative to the request file. */
  path?: string;
  /** Line of the script's first code line in the request file (for error positions). */
  line: number;
  /** `{{ … }}` of httpyac (its API: exports, `$global`, `response.parsedBody`); else JetBrains'. */
  dialect?: 'httpyac';
}

/** One piece of a body with file includes. */
export type BodyPart =
  | { kind: 'text'; text: string }
  /** `< path` (bytes as they are), `<@ path` (text, `{{templates}}` resolved), `<@latin1 path` (that encoding). */
  | { kind: 'file'; path: string; substitute: boolean; encoding?: string; line: number };

/** A piece of a body as it goes on the wire: text (templates resolved), or the bytes of an included file. */
export interface BodyPiece {
  bytes: Buffer;
  /** Absolute path of the file these bytes are as they are (`< ./file`); absent for text and `<@` files. */
  file?: string;
}

/** A profile from `.profiles.json`, validated. Plugins read it; nothing changes it during a run. */
export interface Profile {
  /** `-p NAME`, `REQFLOW_PROFILE`, else `default`, else the first profile. The session is per profile. */
  name: string;
  /**
   * Variable values as written: a string (may hold `{{other}}` or be a `$(shell command)`), or
   * an interactive prompt. Read resolved values with `ctx.variables.get(name)`, never here.
   */
  variables: Record<string, ProfileVariable>;
  /** Headers sent with every request of the profile (a request's own header of the same name wins). */
  headers: Record<string, string>;
  /** OAuth 2.0 settings (`reqflow oauth login`). */
  oauth?: OAuthSettings;
  /** TLS settings for every request of the profile. */
  tls?: TlsSettings;
  /** `"http2": true`: every request of the profile uses HTTP/2 where the server agrees (as `--http2`). */
  http2?: boolean;
  /** `"proxy"`: the proxy of every request of the profile (`--proxy` wins; `""`: none, whatever the environment says). */
  proxy?: string;
  /** `"noProxy"`: hosts that go direct, in place of `no_proxy` (`--noproxy` wins). */
  noProxy?: string;
  /** `"history": false`: the requests of the profile are not kept in the history (as `--no-history`). */
  history?: boolean;
  /**
   * The profile's default authentication method, e.g. `{ "type": "bearer" }`. The other keys
   * are the settings of the method named by `type` (the {@link Plugin.authName} of the plugin
   * that implements it); settings of other methods, for requests that pick them with
   * `# @auth`, sit under the method's name. Values are raw (`{{templates}}` unresolved): read
   * them with the `readAuthSettings` helper, which applies these rules and expands them.
   *
   * @example
   * ```
   * { "type": "hmac", "secret": "{{hmacSecret}}", "header": "X-Signature", "bearer": { "token": "{{apiToken}}" } }
   * ```
   */
  auth?: AuthSettings;
  /** The folder of the profiles file: relative TLS paths in the profile resolve against it. */
  baseDir: string;
}

/** A profile variable: a plain value, or `{ value, interactive: true }` to prompt (with `value` as the default). */
export type ProfileVariable = string | { value: string; interactive?: boolean; secret?: boolean };

/** The `oauth` object of a profile. Keys the built-in OAuth plugin does not know are kept. */
export interface OAuthSettings {
  authUrl?: string;
  tokenUrl?: string;
  clientId: string;
  clientSecret?: string;
  scope?: string;
  redirectUrl?: string;
  deviceUrl?: string;
  /** Token revocation endpoint (RFC 7009) for `reqflow oauth logout`; discovery finds it from `issuer`. */
  revocationUrl?: string;
  issuer?: string;
  grant?: 'authorization_code' | 'client_credentials' | 'device_code';
  [key: string]: unknown;
}

/** The `auth` object of a profile: `type` names the method, the rest is the method's settings. */
export interface AuthSettings {
  type: string;
  [key: string]: unknown;
}

/** What `run` was asked to do. Plugins read it; only the core sets it. */
export interface RunOptions {
  /** `-o pretty|json|raw`. A renderer checks it in `appliesTo`. */
  output: 'pretty' | 'json' | 'raw';
  /** `-v`: show request and response headers. */
  verbose: boolean;
  /** JMESPath from `--filter` (wins over `# @filter`). */
  filter?: string;
  /** `--timeout`, in milliseconds; `ctx.http.send` applies it. */
  timeoutMs: number;
  /** `--no-extract` sets it to false: no token auto-extraction from responses. */
  extract: boolean;
  /** `-k/--insecure`: skip TLS verification for every request (warned). */
  insecure: boolean;
  followRedirects: boolean;
  /** `--max-size`: the most `ctx.readBody()` reads. */
  maxSizeBytes: number;
  /** Streaming requests: stop after this many events. */
  maxEvents?: number;
  /** Streaming requests: stop after this many milliseconds. */
  streamTimeoutMs?: number;
  /** Colours allowed (a terminal and no `NO_COLOR`). */
  color: boolean;
  /** stdout is a terminal (status line, colours). */
  isTerminal: boolean;
  /** stdin is a terminal (interactive prompts allowed). */
  interactive: boolean;
  /** `--debug`: stack traces on errors. */
  debug: boolean;
  /** `--max-time`: the most a request may take, body included (streams excepted). */
  maxTimeMs?: number;
  /** `--env NAME` (or `$REQFLOW_ENV`): the environment of the `.http` tools' files. */
  environment?: string;
  /** `--force`: `-o raw` writes a binary body to a terminal too. */
  force?: boolean;
  /** Time limit of one request-file script (default 5 s). */
  scriptTimeoutMs?: number;
  /** `--save`: values captured with `# @capture` are kept in the profile's session too. */
  save?: boolean;
  /** `--retry N`: sends again after a connection failure or a 429/503, idempotent methods only. */
  retry?: number;
  /** `--retry-all`: POST and other non-idempotent methods are retried too. */
  retryAll?: boolean;
  /** `--http2`: HTTP/2 where the server agrees. */
  http2?: boolean;
  /** `--unix-socket PATH` (absolute): every request connects to this socket instead of the URL's host. */
  unixSocket?: string;
  /** `--proxy URL` (`''`: no proxy, whatever the environment says). */
  proxy?: string;
  /** `--noproxy LIST`: hosts that go direct, in place of `no_proxy`. */
  noProxy?: string;
  /** `--dry-run`: every stage up to `transform`, then print the request instead of sending it. */
  dryRun?: boolean;
  /** `--as curl|http` (with `dryRun`): the form the request is printed in; `.http` without it. */
  dryRunAs?: 'curl' | 'http';
  /** `--show-secrets` (with `dryRun`): secrets printed as they are, so the printed request runs. */
  showSecrets?: boolean;
  /** `--no-cookies` sets it to false: no cookie jar (nothing sent from it, nothing kept). */
  cookies?: boolean;
  /** `--no-history` sets it to false: the run's requests are not kept in the history. */
  history?: boolean;
  /** Values from `-e name=value`. Read them through `ctx.variables`, which also knows session and profile. */
  cliVariables: Record<string, string>;
}

/** A response, once `send` has produced one. */
export interface ResponseInfo {
  status: number;
  statusText: string;
  /** `1.1` or `2.0`. */
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
  /** How many times the request was sent again before this answer (`--retry`). */
  retries?: number;
  /** Body bytes received so far. */
  size: number;
}

/** What a plugin passes to `ctx.http.send`. */
export interface HttpRequest {
  method: string;
  url: string;
  headers: RequestHeaders;
  body?: string | Buffer;
  /** Defaults to the request's `ctx.tlsOptions`. */
  tlsOptions?: TlsConnectionOptions;
  /** Streaming responses: no time-out between chunks once the headers are in. */
  streaming?: boolean;
}

/** reqflow's HTTP client, for plugins that need a request of their own (a token endpoint, a nonce). */
export interface HttpClient {
  /**
   * Resolves when the response headers arrive; the body stays a stream (`response.stream`).
   * Uses the run's keep-alive agents, time-out, redirect setting and `ctx.tlsOptions`; fails
   * with reqflow's network (exit 4) and TLS (exit 5) errors.
   *
   * @example
   * ```
   * const nonce = await ctx.http.send({ method: 'GET', url: 'https://api.example.com/nonce', headers: {} });
   * ```
   */
  send(request: HttpRequest): Promise<ResponseInfo>;
  /**
   * For a connection a plugin opens itself (a WebSocket): the agent that takes it through the
   * run's proxy (`--proxy`, the profile's, `https_proxy`, `no_proxy`), or undefined to go direct.
   * Pass it as the `agent` option of `ws` or `https.request`.
   */
  proxyAgent?(url: string): Agent | undefined;
}

/** One server-sent event (or one GraphQL subscription result). */
export interface StreamEvent {
  event?: string;
  id?: string;
  data: string;
}

/**
 * Session of one profile: values set by responses, OAuth and plugins, kept between runs in a
 * file only the user can read (0600). Later requests of a run see what earlier ones set.
 */
export interface Session {
  /** The profile the session belongs to. */
  readonly profile: string;
  /** A plain session variable (what `{{name}}` resolves to when `-e` does not set it). */
  get(name: string): string | undefined;
  /**
   * Sets a plain session variable; saved after the request. Values are never expanded or run.
   * `'extracted'`: reqflow took it from a response by itself (token extraction), unasked — such a
   * value never shadows one that the environment, the file or the profile defines. Setting the
   * name again without it makes it an ordinary session value.
   */
  set(name: string, value: string, origin?: 'extracted'): void;
  delete(name: string): void;
  /**
   * Structured entries keyed by plugin (OAuth tokens with expiry, a plugin's cache, ...).
   * Use your plugin's name as the key.
   */
  getData<T = unknown>(key: string): T | undefined;
  setData(key: string, value: unknown): void;
  /** Names of plain session variables. */
  names(): string[];
  /** Writes the session file atomically (0600) if anything changed. The core calls it after each request. */
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

/** Resolves `{{...}}` templates for a request. Lookup order: `-e`, file variables, session, environment (`--env`), profile. */
export interface VariableResolver {
  /**
   * The value of a variable, or an exit-3 error naming it and where it could be set.
   * Shell values (`$(command)`) run once per request; interactive ones prompt once per run.
   * Values of secret-looking names (`*secret*`, `*token*`, `*key*`, ...) are masked as `•••`
   * in every later message.
   *
   * @example
   * ```
   * const region = await ctx.variables.get('awsRegion');
   * ```
   */
  get(name: string): Promise<string>;
  /** True when the variable is defined anywhere (`-e`, session, profile). Use it for optional settings. */
  has(name: string): boolean;
  /**
   * Substitutes every `{{...}}` in a text: names, `{{env.NAME}}`, `{{$uuid}}`, `{{$timestamp}}`,
   * `{{urlencode x}}`, `{{base64 x}}`. Fails like `get` on an unknown name.
   */
  expand(text: string): Promise<string>;
  /** Where a variable's value comes from: `-e`, this run (`run`: scripts, `# @capture`), the request file (`@name = value`), `session`, `environment` (`--env`, docs/environments.md), `profile`, or undefined. */
  sourceOf(name: string): 'cli' | 'run' | 'file' | 'session' | 'environment' | 'profile' | undefined;
}
