/**
 * One hop of a request (no redirects): HTTP/2 when asked for and spoken, else HTTP/1.1 over
 * node:http(s) — time-outs, cancellation, interim responses, an unasked-for upgrade — and every
 * failure in one clear line.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { ClientHttp2Session } from 'node:http2';
import { NetworkError, type ReqflowError, UsageError } from '../errors/index.js';
import { hasHeader, type RequestHeaders } from '../headers.js';
import { lazyBuiltin } from '../lazy-builtin.js';
import { maskUrl } from '../mask.js';
import type { AgentPool } from './agents.js';
import { checkHeaderFields } from './header-fields.js';
import type { Http2Sessions } from './http2.js';
import type { Target } from './network-errors.js';
import type { ConnectionPhases, OutgoingRequest } from './outgoing-request.js';
import { fromIncomingMessage, type RawResponse } from './raw-response.js';
import { requestTarget } from './request-target.js';
import { tunnelledTlsOptions } from './tls-connect.js';

/** A socket-style error with a `code`, so that every failure goes through {@link requestError}. */
export function codedError(message: string, code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/**
 * A Node failure in one clear line (network-errors.ts, with the TLS texts): imported when a
 * request fails, so the texts are not on every run's path. From the bundle the import settles
 * within the same turn of the event loop, before any other I/O is handled.
 */
export async function requestError(error: unknown, target: Target, timeoutMs: number): Promise<ReqflowError> {
  const { toRequestError } = await import('./network-errors.js');
  return toRequestError(error, target, timeoutMs);
}

function errorTarget(request: OutgoingRequest, url: URL): Target {
  const proxy = request.socketPath === undefined ? request.proxy?.forUrl(url) : undefined;
  return { method: request.method, url, clientCertificate: request.tls.cert !== undefined || request.tls.pfx !== undefined, ...(request.socketPath !== undefined ? { socketPath: request.socketPath } : {}), ...(proxy ? { proxy } : {}) };
}


/** The request's headers with `Content-Length` for a body (unless written); `reqflow stress` replays them (src/stress/replay/). */
export function headersToSend(request: OutgoingRequest): RequestHeaders {
  const headers: RequestHeaders = { ...request.headers };
  if (request.body !== undefined && !hasHeader(headers, 'content-length')) headers['Content-Length'] = String(Buffer.byteLength(request.body));
  return headers;
}

/** A server may send a few `100 Continue` / `103 Early Hints` before its answer; not thousands. */
const MAX_INTERIM_RESPONSES = 100;
const noop = (): void => undefined;

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
        path: requestTarget(request.url, url, request.asteriskForm),
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

/** One hop: over HTTP/2 when the request asks for it and the origin speaks it, else HTTP/1.1. */
export async function once(request: OutgoingRequest, url: URL, agents: AgentPool): Promise<RawResponse> {
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
      { headers: { ...http2Headers(request.method, url, headersToSend(request)), ':path': requestTarget(request.url, url, request.asteriskForm) }, ...(request.body !== undefined ? { body: request.body } : {}), timeoutMs: request.timeoutMs, streaming: request.keepAliveAfterHeaders === true, maxInterim: MAX_INTERIM_RESPONSES },
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
