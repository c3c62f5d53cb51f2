/**
 * What a run gives every request: its options, the session, the output, the variables, reqflow's
 * HTTP client, and the response once there is one.
 */
import type { Agent } from 'node:http';
import type { Readable, Writable } from 'node:stream';
import type { RequestHeaders } from './headers.js';
import type { TlsConnectionOptions } from './tls-settings.js';

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
  /** `--trust`: the request files may run programs (resterm's `# @auth command`, `require`, httpyac's JavaScript config) without the project being in the trust store. */
  trust?: boolean;
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
  /** `--no-session` sets it to false: the profile's session is neither read nor written (one in memory instead). */
  session?: boolean;
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
  /** Trailer fields (lower-case names) that came after the body, once it has all arrived; absent when none came. */
  trailers?: Record<string, string | string[]>;
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
  /** The `Cookie` header the cookie jar added to the request (the file wrote none): shown with what was sent (`-v`, `-o json`). */
  cookieSent?: string;
}

/**
 * A request body sent from its file as it goes out, never held whole: a file included as it is
 * (`< ./big.bin`, `reqflow send -d @big.bin`) and larger than 1 MiB (`RequestSpec.bodyFile`).
 * Each send opens the file again and sends it only while it is the file that was resolved (its
 * size, time and identity): one that changed is refused, exit 2 naming it.
 */
export interface FileBody {
  /** The path as the request writes it, templates resolved (`./big.bin`): what messages and the history name. */
  readonly shown: string;
  /** The absolute path. */
  readonly path: string;
  /** Its size when the request was resolved: the `Content-Length` sent. */
  readonly byteLength: number;
  /** What `-v`, reports and the UI show in its place: `<file ./big.bin, 1073741824 bytes>`. */
  readonly placeholder: string;
  /** This file while it is still `spec`'s body (no stage has read, replaced or removed `spec.body`), else undefined. */
  stillBodyOf(spec: object): FileBody | undefined;
  /** Resolves while the file is the one resolved, else fails (exit 2 naming it): looked at before an HTTP/2 stream opens (its head goes out at once), so that a changed file is refused with nothing sent. */
  unchanged(): Promise<void>;
  /** Sends the file into `destination` and ends it, or destroys it with the error (exit 2 naming the file) when the file changed or cannot be read. Once per send. */
  writeTo(destination: Writable): void;
  /** The file's text (UTF-8), read whole now, while it is still the file that was sent (exit 2 otherwise): a reference to the request's body, a script. */
  text(): string;
}

/** What a plugin passes to `ctx.http.send`. */
export interface HttpRequest {
  method: string;
  url: string;
  headers: RequestHeaders;
  /** A {@link FileBody} (`spec.bodyFile`) is sent from its file, opened again for each send. */
  body?: string | Buffer | FileBody;
  /** Defaults to the request's `ctx.tlsOptions`. */
  tlsOptions?: TlsConnectionOptions;
  /** Streaming responses: no time-out between chunks once the headers are in. */
  streaming?: boolean;
  /**
   * The `Authorization` of each hop — the first, each redirect `-L` follows, each retry — worked
   * out for that hop's method and URL (digest auth: the answer covers the request that carries
   * it); undefined leaves the hop's headers as they are. A redirect to another origin has
   * already dropped the request's own Authorization: returning one for it sends it there.
   */
  authorization?: (method: string, url: URL) => string | undefined;
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
  /** The project root the session belongs to (`src/core/project.ts`), where known. */
  readonly project?: string;
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
  /**
   * `merge`: how the entry merges with what another run saved meanwhile (three-way, see
   * `mergeData` in core/session.ts, the default: field by field, lists as sets).
   */
  setData(key: string, value: unknown, merge?: (before: unknown, mine: unknown, theirs: unknown) => unknown): void;
  /** Names of plain session variables. */
  names(): string[];
  /** Writes the session file atomically (0600) if anything changed. The core calls it after each request. */
  save(): Promise<void>;
  /** False when `save` would write nothing (then the core does not call it); absent: always saved. */
  changed?(): boolean;
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
  sourceOf(name: string): 'cli' | 'run' | 'file' | 'session' | 'environment' | 'profile' | 'global' | undefined;
}
