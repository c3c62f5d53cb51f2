/**
 * The data that flows through the pipeline: a request as written (`RequestSpec`), the profile
 * and session it runs with, what `run` was asked to do, and the response. Plain types, no
 * behaviour; the stages and their contexts are in `src/pipeline/`. The request's types are here;
 * TLS (`tls-settings.ts`), the profile (`profile-model.ts`) and the run's (`run-model.ts`) are
 * re-exported, so that `model.ts` stays the one place to import the model from.
 */
import type { RequestHeaders } from './headers.js';
import type { TlsSettings } from './tls-settings.js';
import type { FileBody } from './run-model.js';

export type { TlsSettings, TlsConnectionOptions } from './tls-settings.js';
export type { Profile, ProfileVariable, OAuthSettings, AuthSettings } from './profile-model.js';
export type { RunOptions, ResponseInfo, HttpRequest, HttpClient, FileBody, StreamEvent, Session, OutputSink, VariableResolver } from './run-model.js';

/** Where a value came from, for errors that point at the user's text. */
export interface SourceLocation {
  /** The request file, as the user named it. */
  file: string;
  /** 1-based line where the request starts. */
  line: number;
  /** `.http` files: the 1-based line of each `# @key value` annotation, so that a message about one names its line. */
  annotationLines?: Readonly<Record<string, number>>;
  /** `.http` files: the 1-based line of the body's first line of text (blank lines above it are not body). */
  bodyLine?: number;
  /**
   * `.http` files, when lines inside the body are not body text (a comment, an annotation): the
   * 1-based line of each line of the body's text, so that an error inside the body names its line.
   */
  bodyLines?: readonly number[];
  /**
   * 0-based position of the request in its file, set when the file is parsed. With the file it
   * is the request's identity: the requests of a YAML or JSON file may share a line.
   */
  index?: number;
  /**
   * What names the request in a message: its `line` (the default: `.http`, `.ws`, stdin), its
   * `name` (YAML and JSON files, whose requests may share a line), or `nothing` beyond what the
   * message says (`reqflow send`: the request is the command line).
   */
  locatedBy?: 'name' | 'nothing';
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
  /**
   * From `substitute` on, when the body is one file included as it is (`< ./big.bin`) larger
   * than 1 MiB: that file, sent from the disk as the request goes out. `body` then reads it whole
   * the first time a stage reads `body` (the request sends those bytes), and a stage that sets
   * `body` replaces it; either way `bodyFile` goes. Read it with `bodyFile?.stillBodyOf(spec)`,
   * before `body`, to keep the file unread (docs/plugins.md).
   */
  bodyFile?: FileBody;
  /** Line ending of the body on the wire: `crlf` for multipart bodies (RFC 7578). */
  bodyLineEnding?: 'crlf';
  /** File variables (`@name = value`) defined above this request, later definitions winning. */
  fileVariables?: Readonly<Record<string, string>>;
  /** `# @prompt name [description]`: values asked for before the request is sent. */
  /** `# @prompt name`; kulala's `# @secret name` is one whose answer is hidden as it is typed (and a secret). */
  prompts?: Array<{ name: string; description?: string; secret?: boolean }>;
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
  /** `OPTIONS *` (the asterisk-form): sent with the target `*` to the server `url` names. */
  asteriskForm?: true;
  /** A pass's looped request: its exchange is also that name's (`{{page.response…}}` reads the last pass). */
  loopOf?: string;
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
  /** httpyac's `...name` among the headers: the entries of the object `name` holds, as headers (src/chain/header-spread.ts). */
  spreads?: Array<{ name: string; line: number }>;
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
  /** `pre`: before templates are resolved; `request`: httpyac's `{{@request` hook, on the resolved request just before it goes out (src/chain/request-hook.ts); `post`: after the response. */
  phase: 'pre' | 'request' | 'post';
  /** Inline code (`{% … %}`), or absent when the script is a file. */
  code?: string;
  /** `> ./check.js`: relative to the request file. */
  path?: string;
  /** Line of the script's first code line in the request file (for error positions). */
  line: number;
  /** Absolute path of the file it is written in, when not the request's: a global script of a file `# @import` names. */
  file?: string;
  /** `{{ … }}` of httpyac (its API: exports, `$global`, `response.parsedBody`); rest.nvim's Lua (a `{% … %}` of a request with `# @lang=lua`, set by src/chain/plugin.ts); else JetBrains'. */
  dialect?: 'httpyac' | 'lua';
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
