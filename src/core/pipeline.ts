/**
 * The whole extension surface of reqflow in one file: the six stages, the context that flows
 * through them and the shape of a plugin. A plugin author needs nothing but this file (it is
 * what `import type { Plugin, RequestContext, Stage } from 'reqflow'` gives you).
 *
 * One request flows through the stages in this order:
 *
 *   parse → substitute → auth → transform → send → render
 *
 * `parse` turns a file's text into request specs (once per file); the five others run once per
 * request, each receiving the same {@link RequestContext} and returning it (changed or not).
 *
 * Within a stage, handlers run one after the other (never concurrently): built-in plugins
 * first, then third-party plugins in name order, adjusted by {@link Plugin.before} and
 * {@link Plugin.after}. A handler that throws stops the request: a {@link ReqflowError} is shown
 * as it is (its message, hint and exit code); anything else becomes exit 70 with a message
 * naming the plugin and the stage (the stack trace only with `--debug`).
 */
import type { Readable } from 'node:stream';
import type { ReqflowError } from './errors/index.js';

/** The six stages, in run order. */
export const STAGES = ['parse', 'substitute', 'auth', 'transform', 'send', 'render'] as const;

/** `'parse' | 'substitute' | 'auth' | 'transform' | 'send' | 'render'`. */
export type Stage = (typeof STAGES)[number];

/** The stages that run once per request (every stage but `parse`). */
export type RequestStage = Exclude<Stage, 'parse'>;

/** The per-request stages, in run order. */
export const REQUEST_STAGES: readonly RequestStage[] = ['substitute', 'auth', 'transform', 'send', 'render'];

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
  headers: Record<string, string>;
  /** The body text, if any. YAML/JSON object bodies arrive here already serialised as JSON. */
  body?: string;
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
  /** Where the request starts, for error messages. */
  source: SourceLocation;
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
  /** Sets a plain session variable; saved after the request. Values are never expanded or run. */
  set(name: string, value: string): void;
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

/** Resolves `{{...}}` templates for a request. Lookup order: `-e`, then session, then profile. */
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
  /** Where a variable's value comes from: `-e`, `session`, `profile`, or undefined. */
  sourceOf(name: string): 'cli' | 'session' | 'profile' | undefined;
}

/**
 * What every request-stage handler receives, and returns (changed or not).
 *
 * What a handler may change depends on its stage:
 * - `substitute`, `auth`, `transform`: `spec` (URL, headers, body), `tls` / `tlsOptions`,
 *   `session`, `state`.
 * - `send`: sets `response` (the first handler to set it wins; later `send` handlers are skipped).
 * - `render`: reads `response`, writes through `output`, sets `rendered` (and `failed`).
 * Everything else is read-only.
 *
 * @example
 * ```
 * const plugin: Plugin = {
 *   name: 'request-id',
 *   stages: {
 *     transform: (ctx) => {
 *       setHeader(ctx.spec.headers, 'X-Request-Id', crypto.randomUUID());
 *       return ctx;
 *     },
 *   },
 * };
 * ```
 */
export interface RequestContext {
  /** This request (a copy: changes stay within this request). */
  spec: RequestSpec;
  /** Absolute path of the request file. */
  file: string;
  /** Folder of the request file: relative paths in the request resolve against it. */
  baseDir: string;
  /** The active profile (read-only). */
  profile: Profile;
  /** The profile's session: read and write values that must outlive the request. */
  session: Session;
  /** What `run` was asked to do (read-only). */
  options: RunOptions;
  /** Resolves `{{...}}` and reads variables. */
  variables: VariableResolver;
  /** stdout/stderr, or the TUI's panes. Renderers write here, never to `process.stdout`. */
  output: OutputSink;
  /** TLS settings after merging profile and request (set by the core in `substitute`, paths absolute). */
  tls: TlsSettings;
  /**
   * Node TLS options for the connection, filled in the `auth` stage (auth-mtls reads the files
   * named by `tls`). The core keeps one keep-alive agent per distinct set of options.
   */
  tlsOptions: TlsConnectionOptions;
  /** Sends HTTP over the run's keep-alive agents with the run's time-out, redirects and `tlsOptions`. */
  http: HttpClient;
  /** Set by `send`; undefined before. */
  response?: ResponseInfo;
  /**
   * Set by the first `render` handler that showed the response; later render handlers skip.
   * (GraphQL and SSE render before the built-in renderers; a third-party renderer that wants
   * to win says `before: ['render-pretty']`.)
   */
  rendered?: boolean;
  /** Set by a render handler when the response is a failure beyond its status (GraphQL `errors`): exit 1. */
  failed?: boolean;
  /** Scratch space shared by the stages of this request, keyed by plugin name. */
  state: Record<string, unknown>;
  /** Fires when the user cancels (Ctrl-C, Esc in the TUI). Long-running stages must honour it. */
  signal: AbortSignal;
  /** Prints a warning line on stderr (or the TUI status bar), with known secrets masked. */
  warn(message: string): void;
  /** Reads the whole response body, at most `--max-size` bytes. */
  readBody(): Promise<Buffer>;
  /**
   * Replaces every secret value the run knows (secret-named variables, auth header values,
   * `-e` secrets) with `•••`. Apply it to anything shown besides the response body: URLs,
   * header values, messages.
   */
  redact(text: string): string;
  /**
   * Treats a value as secret for the rest of the run: it is shown as `•••` in every warning,
   * error and `-v` line. Values of secret-looking variables and headers are registered
   * already; call this for what your plugin derives or reads elsewhere. (Use the
   * `maskSecret(ctx, value)` helper: it works with hosts that lack this method.)
   */
  addSecret?(value: string): void;
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
}

/** A value or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

/** A request-stage handler: change `ctx` in place (returning it, or nothing). */
export type RequestHandler = (ctx: RequestContext) => Awaitable<RequestContext | void>;

/** A parse handler: push `RequestSpec`s onto `ctx.requests`. */
export type ParseHandler = (ctx: ParseContext) => Awaitable<ParseContext | void>;

/** A plugin's handlers, one per stage it takes part in. */
export interface StageHandlers {
  /**
   * Turns a file's text into request specs. Runs once per file, for the files whose extension
   * is in {@link Plugin.extensions}.
   *
   * @example
   * ```
   * parse: (ctx) => {
   *   for (const [i, line] of ctx.text.split('\n').entries()) {
   *     const [method, url] = line.split(' ');
   *     if (method && url) ctx.requests.push({ name: `request-${i + 1}`, method, url, headers: {}, annotations: {}, source: { file: ctx.file, line: i + 1 } });
   *   }
   * }
   * ```
   */
  parse?: ParseHandler;
  /**
   * Runs after the core has merged the profile's headers and resolved `{{...}}` in the URL,
   * headers, body and TLS settings (unless `before: ['core-substitute']`). Use it for
   * templates of your own.
   */
  substitute?: RequestHandler;
  /**
   * Authenticates the request: add headers (`Authorization`, a signature), query parameters
   * or `ctx.tlsOptions`. Runs after `substitute`, so URL, headers and body are final except
   * for what `transform` does.
   *
   * @example
   * ```
   * auth: async (ctx) => {
   *   setHeader(ctx.spec.headers, 'X-Api-Key', await ctx.variables.get('apiKey'));
   *   return ctx;
   * }
   * ```
   */
  auth?: RequestHandler;
  /**
   * Shapes body and headers for the wire (GraphQL wraps the query in JSON here). Runs after
   * `auth`: a signer that must see the final body should run in `transform` with
   * `after: ['graphql']`.
   */
  transform?: RequestHandler;
  /**
   * Puts the request on the wire and sets `ctx.response`. The first handler to set it wins;
   * the built-in sender (`core-http`) runs last, so a plugin with `before: ['core-http']` can
   * answer from a cache or a mock.
   */
  send?: RequestHandler;
  /**
   * Shows the response. Skip when `ctx.rendered` is already true; set it when you printed.
   *
   * @example
   * ```
   * render: async (ctx) => {
   *   if (ctx.rendered || !ctx.response) return;
   *   ctx.output.out(`${ctx.response.status} ${(await ctx.readBody()).length} bytes\n`);
   *   ctx.rendered = true;
   * }
   * ```
   */
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
 * ```
 * const plugin: Plugin = {
 *   name: 'auth-team',
 *   authName: 'team',
 *   stages: { auth: (ctx) => { ctx.spec.headers['X-Team'] = 'blue'; return ctx; } },
 * };
 * ```
 */
export interface Plugin {
  /**
   * Unique among installed plugins; shown in errors
   * (`plugin "auth-hmac" failed in the auth stage: ...`) and used by `before`/`after`.
   */
  name: string;
  /** The handlers, one per stage the plugin takes part in. */
  stages: StageHandlers;
  /**
   * The auth method this plugin implements: requests say `# @auth <authName>` or the profile
   * says `"auth": { "type": "<authName>" }`. Two plugins may not claim the same name: a
   * request that asks for it fails with exit 2 naming both. `# @auth NAME` that no plugin
   * provides is exit 2 too.
   */
  authName?: string;
  /** File extensions (without the dot) handled by this plugin's `parse`. */
  extensions?: string[];
  /**
   * Custom applicability test, evaluated before each of the plugin's request-stage handlers.
   * Keep it cheap and synchronous; it sees the context as that stage receives it.
   *
   * @example
   * ```
   * appliesTo: (ctx) => ctx.spec.annotations.render === 'table'
   * ```
   */
  appliesTo?(ctx: RequestContext): boolean;
  /** Run this plugin's handlers before those of the named plugins (same stage). */
  before?: string[];
  /**
   * Run this plugin's handlers after those of the named plugins (same stage).
   *
   * @example
   * ```
   * after: ['graphql'] // sign the body GraphQL produced in `transform`
   * ```
   */
  after?: string[];
}

/** The error type plugins throw for a clear, user-facing failure with an exit code. */
export type { ReqflowError };

/**
 * What the `reqflow:plugins` hook receives (besides oclif's `config` and `context`).
 */
export interface PluginsHookOptions {
  /**
   * reqflow's runtime API: the same object as `import * as reqflow from 'reqflow'`, handed to
   * you by the running reqflow. Take helpers and error classes from here rather than importing
   * `reqflow` at run time: a plugin installed with `reqflow plugins install` has no copy of
   * reqflow next to it, and this one is always the version that runs your plugin.
   */
  reqflow: typeof import('../index.js');
}

/**
 * The oclif hook a plugin package declares in its package.json to hand reqflow its plugins:
 *
 * ```
 * "oclif": { "hooks": { "reqflow:plugins": "./dist/hook.js" } }
 * ```
 *
 * The module's default export returns one plugin or a list. reqflow calls it once per run, only
 * for runs that need plugins; hooks of different packages may run concurrently, so a hook
 * must not depend on another package's. A value with the wrong shape is skipped with one
 * warning naming the package; a hook that throws is reported the same way.
 *
 * @example
 * ```
 * import type { PluginsHook } from 'reqflow';
 * const hook: PluginsHook = ({ reqflow }) => [createPlugin(reqflow)];
 * export default hook;
 * ```
 */
export type PluginsHook = (options: PluginsHookOptions) => Awaitable<Plugin | Plugin[] | undefined>;
