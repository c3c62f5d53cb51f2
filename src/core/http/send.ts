import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { ClientHttp2Session } from 'node:http2';
import { Transform, type Readable } from 'node:stream';
import { NetworkError, type ReqflowError, UsageError } from '../errors/index.js';
import type { ResponseInfo, TlsConnectionOptions } from '../model.js';
import { AbortHooks } from '../abort-hooks.js';
import { lazyBuiltin } from '../lazy-builtin.js';
import { fieldLines, fieldValue, hasHeader, type RequestHeaders } from '../headers.js';
import { maskUrl } from '../mask.js';
import { VERSION } from '../version.js';
import { recordBody } from '../token-extraction.js';
import type { CookieStore } from './cookie-jar.js';
import type { ProxyRules } from './proxy.js';
import type { AgentPool } from './agents.js';
import { tunnelledTlsOptions } from './tls-connect.js';
import type { Target } from './network-errors.js';
import { checkHeaderFields } from './header-fields.js';
import type { Http2Mode, Http2Sessions } from './http2.js';
import { requestTarget } from './request-target.js';
import { fromIncomingMessage, type RawResponse } from './raw-response.js';
import { portOutOfRange } from './url-port.js';

export interface OutgoingRequest {
  method: string;
  url: string;
  headers: RequestHeaders;
  body?: string | Buffer;
  tls: TlsConnectionOptions;
  timeoutMs: number;
  /** Time-out for the connection alone (TCP and TLS), when shorter than `timeoutMs`. */
  connectTimeoutMs?: number;
  /** `--max-time`: the whole request, body included, must be done within this (not for streams). */
  maxTimeMs?: number;
  followRedirects: boolean;
  /** The run's cancellation (Ctrl-C, Esc in the TUI). */
  abort?: AbortHooks;
  /** Headers that must not follow a redirect to another origin, beyond Authorization, Cookie and Proxy-Authorization. */
  isSecretHeader?: (name: string, value: string) => boolean;
  /** Told of each redirect followed, and of the headers dropped on it. */
  onRedirect?: (to: URL, dropped: string[]) => void;
  /** Streaming responses (SSE) must not time out between events once the headers are in. */
  keepAliveAfterHeaders?: boolean;
  /** Keep a copy of the body up to this many bytes (a chained request's checks read it), whatever its type. */
  recordLimit?: number;
  /** Keep a copy of the first this many bytes of any body, however large (the history's). */
  recordHead?: number;
  /** Which proxy each hop goes through (`--proxy`, `*_proxy`, `no_proxy`). */
  proxy?: ProxyRules;
  /** Told of the proxy a hop goes through (for `-v`). */
  onProxy?: (proxy: URL, target: URL) => void;
  /** The run's cookie jar: its cookies go out with each hop (unless the request has its own `Cookie`), `Set-Cookie`s come in. */
  cookies?: CookieStore;
  /**
   * HTTP/2: `require` (the request line says so), `prefer` (`--http2`, the profile), `never`
   * (the request line says HTTP/1.1). Absent: HTTP/1.1, or HTTP/2 for an https:// server that
   * refuses HTTP/1.1 in the TLS handshake (nothing was sent then).
   */
  http2?: Http2Mode | 'never';
  /** Told when a server turned out to speak only HTTP/2 (for `-v`). */
  onProtocol?: (url: URL, version: '2') => void;
  /** `--unix-socket`: connect here instead of the URL's host (no proxy, HTTP/1.1). */
  socketPath?: string;
  /** Told when each HTTP/1.1 hop's headers arrive how long its phases took (the TUI's `t`); unset, nothing is measured. */
  onPhases?: (phases: ConnectionPhases) => void;
}

/** Milliseconds from a hop's start to each event; a kept-alive socket has no DNS, connect or TLS. */
export interface ConnectionPhases {
  dns?: number;
  connect?: number;
  tls?: number;
  firstByte: number;
  reused: boolean;
}

const MAX_REDIRECTS = 10;
/** A server may send a few `100 Continue` / `103 Early Hints` before its answer; not thousands. */
const MAX_INTERIM_RESPONSES = 100;

/** A socket-style error with a `code`, so that every failure goes through {@link requestError}. */
function codedError(message: string, code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/**
 * A Node failure in one clear line (network-errors.ts, with the TLS texts): imported when a
 * request fails, so the texts are not on every run's path. From the bundle the import settles
 * within the same turn of the event loop, before any other I/O is handled.
 */
async function requestError(error: unknown, target: Target, timeoutMs: number): Promise<ReqflowError> {
  const { toRequestError } = await import('./network-errors.js');
  return toRequestError(error, target, timeoutMs);
}
const SUPPORTED = new Set(['http:', 'https:']);
const noop = (): void => undefined;

/** Validates a URL once, where it enters the wire: exit 2 for text that is not an http(s) URL. A new object each call: callers may change it. */
export function parseRequestUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // WHATWG URL says only "Invalid URL" for a port past 65535: not a missing {{baseUrl}}.
    const port = portOutOfRange(text);
    if (port !== undefined) throw new UsageError(`port ${port} is out of range (1–65535) in ${maskUrl(text)}`);
    throw new UsageError(`not a valid URL: "${maskUrl(text)}"`, { hint: 'URLs must be absolute, e.g. http://localhost:3000/path (is a {{baseUrl}} variable missing?)' });
  }
  if (!SUPPORTED.has(url.protocol)) throw new UsageError(`unsupported URL scheme "${url.protocol.replace(/:$/, '')}" in ${maskUrl(text)}`, { hint: 'reqflow sends http:// and https:// requests' });
  return url;
}

/**
 * What every request reqflow sends carries unless the request sets its own: plain requests,
 * streams (SSE, GraphQL subscriptions) and a plugin's own calls alike.
 */
export function withDefaultHeaders(headers: Readonly<RequestHeaders>): RequestHeaders {
  const out = { ...headers };
  let agent = false;
  let accept = false;
  for (const name in out) {
    const lower = name.toLowerCase();
    if (lower === 'user-agent') agent = true;
    else if (lower === 'accept') accept = true;
  }
  if (!agent) out['User-Agent'] = `reqflow/${VERSION}`;
  if (!accept) out.Accept = '*/*';
  return out;
}

/** Where a redirect points: an http(s) URL, or exit 4 showing the value the server sent. */
function redirectTarget(location: string, from: URL): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new NetworkError(`the server redirected to a malformed location: ${JSON.stringify(maskUrl(location).slice(0, 200))}`, { hint: 'run without -L to see the response itself' });
  }
  if (!SUPPORTED.has(next.protocol)) throw new NetworkError(`the server redirected to a location that is not http(s): ${JSON.stringify(maskUrl(location).slice(0, 200))}`, { hint: 'run without -L to see the response itself' });
  return next;
}

/** Sends one request and resolves when the response headers arrive; the body is left as a stream. */
export async function sendHttp(request: OutgoingRequest, agents: AgentPool): Promise<ResponseInfo> {
  const deadline = request.maxTimeMs !== undefined && !request.keepAliveAfterHeaders ? startDeadline(request.maxTimeMs, request.abort) : undefined;
  try {
    return await sendWithDeadline(request, agents, deadline);
  } catch (error) {
    deadline?.clear();
    if (deadline?.fired()) throw maxTimeError(request);
    throw error;
  }
}

function maxTimeError(request: OutgoingRequest): NetworkError {
  return new NetworkError(`${request.method} ${maskUrl(request.url)} took longer than --max-time (${request.maxTimeMs ?? 0} ms)`, { hint: 'raise --max-time, or leave it out for no total limit' });
}

/** A per-request deadline: its own cancellation (linked to the run's) that fires at `maxTimeMs`. */
interface Deadline {
  hooks: AbortHooks;
  fired(): boolean;
  clear(): void;
}

function startDeadline(maxTimeMs: number, run: AbortHooks | undefined): Deadline {
  const controller = new AbortController();
  let fired = false;
  const timer = setTimeout(() => {
    fired = true;
    controller.abort();
  }, maxTimeMs);
  timer.unref();
  const stopRun = run?.whenAborted(() => controller.abort());
  if (run?.signal.aborted) controller.abort();
  return {
    hooks: new AbortHooks(controller.signal),
    fired: () => fired,
    clear: () => {
      clearTimeout(timer);
      stopRun?.();
    },
  };
}

async function sendWithDeadline(request: OutgoingRequest, agents: AgentPool, deadline: Deadline | undefined): Promise<ResponseInfo> {
  let url = parseRequestUrl(request.url);
  let method = request.method;
  let body = request.body;
  let headers = withDefaultHeaders(request.headers);
  let hopRequest: OutgoingRequest = { ...request, headers, ...(deadline ? { abort: deadline.hooks } : {}) };
  // A Cookie header the request file wrote is sent as written: the jar adds nothing to it.
  const jar = request.cookies && !Object.keys(request.headers).some((name) => name.toLowerCase() === 'cookie') ? request.cookies : undefined;
  for (let hop = 0; ; hop++) {
    const started = process.hrtime.bigint(); // not performance.now(): perf_hooks costs start-up time
    const cookie = jar ? await jar.header(url.href) : undefined;
    const response = await once(cookie ? { ...hopRequest, headers: { ...hopRequest.headers, Cookie: cookie } } : hopRequest, url, agents);
    const setCookie = response.headers['set-cookie'];
    if (jar && setCookie) await jar.store(url.href, setCookie);
    const location = response.headers.location;
    if (request.followRedirects && location && [301, 302, 303, 307, 308].includes(response.statusCode)) {
      if (hop >= MAX_REDIRECTS) throw new NetworkError(`too many redirects (more than ${MAX_REDIRECTS}) from ${maskUrl(request.url)}`);
      response.body.resume();
      const next = redirectTarget(location, url);
      headers = { ...headers };
      if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        for (const name of Object.keys(headers)) if (/^content-(length|type)$/i.test(name)) delete headers[name];
      }
      // Never carry credentials to another origin (scheme, host or port): nothing is signed again either.
      const dropped: string[] = [];
      if (next.origin !== url.origin) {
        for (const [name, value] of Object.entries(headers)) {
          if (/^(authorization|cookie|proxy-authorization)$/i.test(name) || fieldLines(value).some((line) => request.isSecretHeader?.(name, line) === true)) {
            delete headers[name];
            dropped.push(name);
          }
        }
      }
      request.onRedirect?.(next, dropped);
      url = next;
      hopRequest = { ...request, method, headers, ...(deadline ? { abort: deadline.hooks } : {}) };
      if (body === undefined) delete hopRequest.body;
      continue;
    }
    const onDeadline = deadline ? (): Error => maxTimeError(request) : undefined;
    const info = toResponseInfo(response, Number(process.hrtime.bigint() - started) / 1e6, { method, url, recordLimit: hopRequest.recordLimit, recordHead: hopRequest.recordHead }, hopRequest.abort, onDeadline && deadline ? { fired: deadline.fired, error: onDeadline } : undefined);
    if (deadline) info.stream?.once('close', deadline.clear);
    return info;
  }
}

/** What errors name: the request, and whether a client certificate or a Unix socket was in play. */
function errorTarget(request: OutgoingRequest, url: URL): Target {
  const proxy = request.socketPath === undefined ? request.proxy?.forUrl(url) : undefined;
  return { method: request.method, url, clientCertificate: request.tls.cert !== undefined || request.tls.pfx !== undefined, ...(request.socketPath !== undefined ? { socketPath: request.socketPath } : {}), ...(proxy ? { proxy } : {}) };
}

/** The request's headers with `Content-Length` for a body (unless written). */
function headersToSend(request: OutgoingRequest): RequestHeaders {
  const headers: RequestHeaders = { ...request.headers };
  if (request.body !== undefined && !hasHeader(headers, 'content-length')) headers['Content-Length'] = String(Buffer.byteLength(request.body));
  return headers;
}

/** One hop: over HTTP/2 when the request asks for it and the origin speaks it, else HTTP/1.1. */
async function once(request: OutgoingRequest, url: URL, agents: AgentPool): Promise<RawResponse> {
  if (request.http2 === 'require' && request.socketPath !== undefined) {
    throw new UsageError(`${request.method} ${maskUrl(url.href)} says HTTP/2, which reqflow does not speak over --unix-socket`, { hint: 'remove HTTP/2 from the request line' });
  }
  checkHeaderFields(request.method, url, request.headers);
  // Over a Unix socket: HTTP/1.1, no proxy (docs/cli.md).
  const mode = request.http2 ?? (agents.speaksOnlyHttp2(url) ? 'require' : undefined);
  if (mode !== undefined && mode !== 'never' && request.socketPath === undefined) {
    const proxy = request.proxy?.forUrl(url);
    // Through a proxy, HTTP/2 goes over a tunnel to the server. `--http2` for an http:// URL
    // stays HTTP/1.1 through it: the proxy forwards that, where it may refuse a tunnel (docs/http2.md).
    if (!(proxy && mode === 'prefer' && url.protocol === 'http:')) {
      const target = errorTarget(request, url);
      const connectMs = request.connectTimeoutMs ?? request.timeoutMs;
      const sessions = await agents.http2();
      // A request line's HTTP/2 on an http:// URL asks what curl's --http2 does there (kulala runs curl with it;
      // httpyac's got speaks HTTP/1.1 there): HTTP/2 where the server speaks it, else HTTP/1.1 (docs/http2.md).
      const sessionMode = mode === 'require' && url.protocol === 'http:' ? 'prefer' : mode;
      const session = await sessions.session(url, request.tls, sessionMode, connectMs, proxy).catch(async (error: unknown) => {
        throw await requestError(error, target, (error as NodeJS.ErrnoException).code === 'REQFLOW_CONNECT_TIMEOUT' ? connectMs : request.timeoutMs);
      });
      if (session) {
        if (proxy) request.onProxy?.(proxy, url);
        return onceHttp2(request, url, session, sessions);
      }
    }
  }
  try {
    return fromIncomingMessage(await onceHttp1(request, url, agents));
  } catch (error) {
    // An HTTP/2-only gateway refuses HTTP/1.1 by ALPN before any request byte was sent: it is
    // then spoken to in HTTP/2, as curl does, and remembered for the rest of the run.
    if (request.http2 !== undefined || url.protocol !== 'https:' || request.socketPath !== undefined || !refusedHttp1(error)) throw error;
    agents.rememberOnlyHttp2(url);
    request.onProtocol?.(url, '2');
    return once(request, url, agents);
  }
}

/** A TLS `no_application_protocol` alert (RFC 7301 §3.2, alert 120): the server does not speak what ALPN offered. */
function refusedHttp1(error: unknown): boolean {
  const cause = ((error as { cause?: unknown }).cause ?? error) as NodeJS.ErrnoException;
  return cause.code === 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL' || /SSL alert number 120\b/.test(String(cause.message));
}

/** What Node throws for a header it will not put in an HTTP/2 frame. */
const HEADER_ERRORS = new Set(['ERR_HTTP2_INVALID_HEADER_VALUE', 'ERR_INVALID_HTTP_TOKEN', 'ERR_INVALID_CHAR', 'ERR_HTTP2_HEADER_SINGLE_VALUE', 'ERR_HTTP2_INVALID_CONNECTION_HEADERS', 'ERR_HTTP2_INVALID_PSEUDOHEADER']);

async function onceHttp2(request: OutgoingRequest, url: URL, session: ClientHttp2Session, sessions: Http2Sessions): Promise<RawResponse> {
  const { http2Headers, http2Request } = await import('./http2.js'); // loaded with the sessions
  const cancelled = (): NetworkError => new NetworkError(`${request.method} ${url.origin}${url.pathname} was cancelled`);
  if (request.abort?.signal.aborted) throw cancelled();
  const target = errorTarget(request, url);
  let exchange;
  try {
    exchange = http2Request(
      session,
      { headers: { ...http2Headers(request.method, url, headersToSend(request)), ':path': requestTarget(request.url, url) }, ...(request.body !== undefined ? { body: request.body } : {}), timeoutMs: request.timeoutMs, streaming: request.keepAliveAfterHeaders === true, maxInterim: MAX_INTERIM_RESPONSES },
      sessions.streams,
    );
  } catch (error) {
    if (!HEADER_ERRORS.has((error as NodeJS.ErrnoException).code ?? '')) throw await requestError(error, target, request.timeoutMs);
    // A header HTTP/2 cannot carry (Node checks names and values before sending).
    throw new UsageError(`${request.method} ${maskUrl(url.href)} cannot go over HTTP/2: ${(error as Error).message}`, { hint: 'remove HTTP/2 (and --http2) to send it over HTTP/1.1' });
  }
  const stop = request.abort?.whenAborted(() => exchange.cancel(codedError('cancelled', 'ABORT_ERR')));
  try {
    return await exchange.response;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ABORT_ERR') throw cancelled();
    throw await requestError(error, target, request.timeoutMs);
  } finally {
    stop?.();
  }
}

function onceHttp1(request: OutgoingRequest, url: URL, agents: AgentPool): Promise<IncomingMessage> {
  return new Promise((resolvePromise, reject) => {
    const cancelled = (): NetworkError => new NetworkError(`${request.method} ${url.origin}${url.pathname} was cancelled`);
    // Cancelled before the request went out (Esc in the TUI while variables resolved): an
    // abort listener added now would never fire.
    if (request.abort?.signal.aborted) {
      reject(cancelled());
      return;
    }
    const target = errorTarget(request, url);
    const headers = headersToSend(request);
    const send = url.protocol === 'https:' ? lazyBuiltin<typeof import('node:https')>('node:https').request : httpRequest;
    const proxy = request.socketPath === undefined ? request.proxy?.forUrl(url) : undefined;
    if (proxy) request.onProxy?.(proxy, url);
    let req: ReturnType<typeof httpRequest>;
    try {
      // Through a proxy, the TLS options of the server's connection travel with the request (the agent is the proxy's).
      req = send(url, {
        method: request.method,
        path: requestTarget(request.url, url),
        headers,
        agent: agents.forUrl(url, request.tls, proxy),
        ...(proxy && url.protocol === 'https:' ? tunnelledTlsOptions(request.tls, url) : {}),
        // The agents key their connections by socket path too, so keep-alive still holds.
        ...(request.socketPath !== undefined ? { socketPath: request.socketPath } : {}),
      });
    } catch (error) {
      // Unusable TLS material (a key that is not PEM, a bad passphrase) throws right here.
      void requestError(error, target, request.timeoutMs).then(reject);
      return;
    }
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      // A reset on a kept-alive socket says nothing about the TLS handshake (see tls-errors.ts).
      const code = (error as NodeJS.ErrnoException).code;
      void requestError(error, { ...target, reusedSocket: req.reusedSocket }, code === 'REQFLOW_CONNECT_TIMEOUT' ? (request.connectTimeoutMs ?? request.timeoutMs) : request.timeoutMs).then(reject);
    };
    req.setTimeout(request.timeoutMs, () => req.destroy(codedError('timed out', 'REQFLOW_TIMEOUT')));
    // A new socket must connect (TCP and TLS) in time; a kept-alive one is connected already.
    // Without `# @connection-timeout` that is --timeout, on a timer of our own: Node's idle timer
    // skips its first expiry while a write is queued — a ClientHello the server never reads is
    // one — so a handshake that never completes would end at twice --timeout.
    const connectTimeoutMs = request.connectTimeoutMs ?? request.timeoutMs;
    req.once('socket', (socket) => {
      if (!socket.connecting) return;
      const expired = (): Error => (request.connectTimeoutMs === undefined ? codedError('timed out', 'REQFLOW_TIMEOUT') : codedError('no connection', 'REQFLOW_CONNECT_TIMEOUT'));
      const timer = setTimeout(() => req.destroy(expired()), connectTimeoutMs);
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(timer)).once('close', () => clearTimeout(timer));
    });
    const onAbort = (): void => {
      req.destroy(codedError('cancelled', 'ABORT_ERR'));
    };
    const stopWatchingAbort = request.abort?.whenAborted(onAbort) ?? noop;
    req.on('error', (error) => {
      // Failed before a response: the run's signal must not keep this request's listener (5,000 failures add up).
      stopWatchingAbort();
      if ((error as NodeJS.ErrnoException).code === 'ABORT_ERR') {
        if (!settled) {
          settled = true;
          reject(cancelled());
        }
        return;
      }
      fail(error);
    });
    // A 101 nobody asked for would leave the request hanging forever (and the run silent).
    // Interim (1xx) responses reset the idle time-out: an endless stream of them must still end.
    let interim = 0;
    req.on('information', () => {
      if (++interim > MAX_INTERIM_RESPONSES) req.destroy(codedError(`more than ${MAX_INTERIM_RESPONSES} interim (1xx) responses and no final one`, 'REQFLOW_INTERIM_FLOOD'));
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      stopWatchingAbort();
      if (settled) return;
      settled = true;
      reject(new NetworkError(`${request.method} ${url.origin}${url.pathname}: the server switched protocols (${res.statusCode ?? 101} ${res.statusMessage ?? ''}) without being asked`.trimEnd(), { hint: 'a WebSocket endpoint? reqflow sends this request as plain HTTP' }));
    });
    if (request.onPhases) watchPhases(req, request.onPhases);
    req.on('response', (res) => {
      settled = true;
      stopWatchingAbort();
      if (request.keepAliveAfterHeaders) req.setTimeout(0);
      else {
        // The same time-out bounds each silence while the body arrives.
        res.socket?.setTimeout(request.timeoutMs);
      }
      resolvePromise(res);
    });
    if (request.body !== undefined) req.end(request.body);
    else req.end();
  });
}

/** Times the socket's events (DNS lookup, TCP connect, TLS handshake) and the response headers. */
function watchPhases(req: ReturnType<typeof httpRequest>, report: (phases: ConnectionPhases) => void): void {
  const started = process.hrtime.bigint();
  const since = (): number => Number(process.hrtime.bigint() - started) / 1e6;
  const phases: Omit<ConnectionPhases, 'firstByte'> = { reused: false };
  req.once('socket', (socket) => {
    if (!socket.connecting) return void (phases.reused = true);
    socket.once('lookup', () => (phases.dns = since())).once('connect', () => (phases.connect = since())).once('secureConnect', () => (phases.tls = since()));
  });
  req.once('response', () => report({ ...phases, firstByte: since() }));
}

/** The request a body belongs to, and what of the body is kept (see recordBody). */
interface RecordTarget {
  method: string;
  url: URL;
  recordLimit?: number | undefined;
  recordHead?: number | undefined;
}

/** Set when `--max-time` applies: what a cancellation becomes once the deadline has passed. */
interface DeadlineCheck {
  fired(): boolean;
  error(): Error;
}

function toResponseInfo(res: RawResponse, durationMs: number, target: RecordTarget, abort?: AbortHooks, deadline?: DeadlineCheck): ResponseInfo {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers[name] = value;
  const info: ResponseInfo = {
    status: res.statusCode,
    statusText: res.statusMessage,
    httpVersion: res.httpVersion,
    headers,
    durationMs,
    size: 0,
  };
  info.stream = bodyStream(res, info, target, abort, deadline);
  return info;
}

/**
 * The body as its reader sees it. Counting happens inside a transform, not with a 'data'
 * listener: a listener would start the flow before any renderer is attached and lose the body.
 * Socket errors surface as the same one-line NetworkError as errors before the headers.
 */
function bodyStream(res: RawResponse, info: ResponseInfo, target: RecordTarget, abort?: AbortHooks, deadline?: DeadlineCheck): Readable {
  const source = decoded(res);
  const stream: Transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      info.size += chunk.length;
      record?.(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      record?.(null);
      callback();
    },
  });
  // The first MiB of a 2xx JSON body (token extraction), or more of any body (chained requests), kept here rather than in a second stream.
  const record = recordBody(stream, info, target.recordLimit, target.recordHead);
  // The first failure ends the body: no more of it flows while its words load.
  let failed = false;
  const fail = (error: unknown, timeoutMs = 0): void => {
    if (stream.destroyed || failed) return;
    failed = true;
    source.unpipe(stream);
    void requestError(error, target, timeoutMs).then((worded) => stream.destroy(worded));
  };
  source.on('error', (error) => fail(error));
  // A reset mid-body surfaces as 'aborted' (or an error): give it the same clear wording.
  res.body.on('aborted', () => fail(codedError('aborted', 'ECONNRESET')));
  const stopWatchingIdle = res.watchIdle(() => fail(codedError('timed out', 'REQFLOW_TIMEOUT'), res.idleTimeoutMs()));
  // Ctrl-C while a body (or an endless stream) arrives ends it at once.
  const onAbort = (): void => {
    if (deadline?.fired()) {
      if (!stream.destroyed && !failed) stream.destroy(deadline.error());
    } else fail(codedError('cancelled', 'ABORT_ERR'));
  };
  const stopWatchingAbort = abort?.whenAborted(onAbort) ?? noop;
  stream.once('close', () => {
    stopWatchingIdle();
    stopWatchingAbort();
    if (!source.readableEnded) source.destroy();
  });
  source.pipe(stream);
  return stream;
}

/** Undoes `Content-Encoding` (gzip, deflate, br) so that the user sees the body, not its wire form. */
function decoded(res: RawResponse): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
  if (!['gzip', 'x-gzip', 'deflate', 'br'].includes(encoding)) return res.body;
  const zlib = lazyBuiltin<typeof import('node:zlib')>('node:zlib');
  const decoder = encoding === 'br' ? zlib.createBrotliDecompress() : encoding === 'deflate' ? zlib.createInflate() : zlib.createGunzip();
  res.body.on('error', (error) => decoder.destroy(error));
  return res.body.pipe(decoder);
}
