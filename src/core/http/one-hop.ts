/**
 * One hop of a request (no redirects): HTTP/2 when asked for and spoken, else HTTP/1.1 over
 * node:http(s) — time-outs, cancellation, interim responses, an unasked-for upgrade — and every
 * failure in one clear line.
 */
import { request as httpRequest, type RequestOptions } from 'node:http';
import { NetworkError, UsageError } from '../errors/index.js';
import { isEventStream } from '../content-type.js';
import { lazyBuiltin } from '../lazy-builtin.js';
import { maskUrl } from '../mask.js';
import type { AgentPool } from './agents.js';
import { sendsAgain } from './idempotent.js';
import { checkHeaderFields, headersToSend } from './header-fields.js';
import { codedError, errorTarget, requestError } from './hop-failures.js';
import { interimFlood, MAX_INTERIM_RESPONSES } from './interim-flood.js';
import type { Target } from './network-errors.js';
import type { ConnectionPhases, OutgoingRequest } from './outgoing-request.js';
import { fromIncomingMessage, type RawResponse } from './raw-response.js';
import { requestTarget } from './request-target.js';
import { tunnelledTlsOptions } from './tls-connect.js';

const noop = (): void => undefined;

/**
 * Where a request goes, as Node would take it from `url` (`urlToHttpOptions`), for a URL without
 * user info: the options alone spare Node reading every part of the URL again, per request.
 */
function hostOptions(url: URL): RequestOptions {
  const { hostname, port } = url;
  const options: RequestOptions = { protocol: url.protocol, hostname: hostname.startsWith('[') ? hostname.slice(1, -1) : hostname };
  if (port !== '') options.port = Number(port);
  return options;
}

function onceHttp1(request: OutgoingRequest, url: URL, agents: AgentPool, resent = false): Promise<RawResponse> {
  return new Promise((resolvePromise, reject) => {
    const cancelled = (): NetworkError => new NetworkError(`${request.method} ${url.origin}${url.pathname} was cancelled`);
    // Cancelled before the request went out (Esc in the TUI while variables resolved): an
    // abort listener added now would never fire.
    if (request.abort?.signal.aborted) {
      reject(cancelled());
      return;
    }
    // What an error names: worked out only when one happens.
    const target = (): Target => errorTarget(request, url);
    const headers = headersToSend(request);
    const send = url.protocol === 'https:' ? lazyBuiltin<typeof import('node:https')>('node:https').request : httpRequest;
    const proxy = request.socketPath === undefined ? request.proxy?.forUrl(url) : undefined;
    if (proxy) request.onProxy?.(proxy, url);
    let req: ReturnType<typeof httpRequest>;
    try {
      const options: RequestOptions = {
        method: request.method,
        path: requestTarget(request.url, url, request.asteriskForm),
        headers,
        agent: agents.forUrl(url, request.tls, proxy),
      };
      // Through a proxy, the TLS options of the server's connection travel with the request (the agent is the proxy's).
      if (proxy && url.protocol === 'https:') Object.assign(options, tunnelledTlsOptions(request.tls, url));
      // The agents key their connections by socket path too, so keep-alive still holds.
      if (request.socketPath !== undefined) options.socketPath = request.socketPath;
      req = url.username === '' && url.password === '' ? send(Object.assign(hostOptions(url), options)) : send(url, options);
    } catch (error) {
      // Unusable TLS material (a key that is not PEM, a bad passphrase) throws right here.
      void requestError(error, target(), request.timeoutMs).then(reject);
      return;
    }
    let settled = false;
    // Bytes that break HTTP's framing after the headers (a bad chunk size): the request hears the
    // parser's error before the body hears the socket close, and the body's failure names it.
    let framingError: Error | undefined;
    // Any other failure of the connection once the headers are in (a reset): a body that ends with the connection was cut, not complete.
    let socketError: Error | undefined;
    const fail = (error: unknown): void => {
      if (settled) {
        if ((error as NodeJS.ErrnoException).code?.startsWith('HPE_') === true) framingError ??= error as Error;
        else socketError ??= error as Error;
        return;
      }
      settled = true;
      const code = (error as NodeJS.ErrnoException).code;
      // A kept-alive connection the server closed as the request went out (its idle time-out and
      // the request crossed): an idempotent request goes once more, on a new connection, as
      // browsers and curl do; any other may have reached the server, and is not sent again.
      // So too when the reused connection answers with what is not HTTP before any response:
      // most likely the rest of a reply nobody asked for, left behind the last response (curl
      // would have closed that connection). A server that garbles every answer fails again.
      const why = code === 'ECONNRESET' || code === 'EPIPE' ? `closed the kept-alive connection as the ${request.method} went out` : code?.startsWith('HPE_') === true ? `answered the ${request.method} on a kept-alive connection with bytes that are not HTTP` : undefined;
      if (req.reusedSocket && why !== undefined && sendsAgain(request.method, false, resent)) {
        req.socket?.destroy();
        request.onResend?.(url, why);
        onceHttp1(request, url, agents, true).then(resolvePromise, reject);
        return;
      }
      // A reset on a kept-alive socket says nothing about the TLS handshake (see tls-errors.ts).
      const failed = { ...target(), reusedSocket: req.reusedSocket };
      // TLS with the server was up (through the proxy's tunnel): what failed is the server's, not the proxy's.
      if ((req.socket as { encrypted?: boolean } | null)?.encrypted === true) delete failed.proxy;
      void requestError(error, failed, code === 'REQFLOW_CONNECT_TIMEOUT' ? (request.connectTimeoutMs ?? request.timeoutMs) : request.timeoutMs).then(reject);
    };
    const timedOut = (): void => void req.destroy(codedError('timed out', 'REQFLOW_TIMEOUT'));
    req.setTimeout(request.timeoutMs, timedOut);
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
      if (++interim > MAX_INTERIM_RESPONSES) req.destroy(interimFlood());
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
      stopWatchingAbort();
      // A status below 100 (`099`, `000`) is no status at all (RFC 9110 §15): not a success to exit 0 with.
      if ((res.statusCode ?? 0) < 100) {
        fail(codedError(String(res.statusCode ?? 0), 'REQFLOW_BAD_STATUS'));
        return void req.destroy();
      }
      settled = true;
      // The body's silences are watched by the body (raw-response.ts): not while reqflow holds it back.
      req.removeListener('timeout', timedOut);
      // Only an event stream is read without a time-out: any other answer is a body like any other's.
      if (request.keepAliveAfterHeaders && isEventStream({ status: res.statusCode ?? 0, headers: res.headers })) req.setTimeout(0);
      else {
        // The same time-out bounds each silence while the body arrives.
        res.socket?.setTimeout(request.timeoutMs);
      }
      resolvePromise(fromIncomingMessage(res, () => framingError, () => socketError));
    });
    if (request.body === undefined) req.end();
    // A large file, as it is read; one that changed is refused before its first bytes, and so before the head (Node sends it with them).
    else if (typeof request.body === 'object' && 'writeTo' in request.body) request.body.writeTo(req);
    // Node writes the head in Latin-1, but beside a string body in UTF-8: a jar's cookie with a
    // byte past ASCII would go back as two. With the body as bytes the head stays Latin-1.
    else req.end(typeof request.body === 'string' && request.cookie !== undefined && /[^\0-\x7f]/.test(request.cookie) ? Buffer.from(request.body) : request.body);
  });
}

/**
 * One hop: over HTTP/2 when the request asks for it and the origin speaks it, else HTTP/1.1.
 * Not `async`: an HTTP/1.1 hop (nearly every request) makes no promise beyond its own.
 */
export function once(request: OutgoingRequest, url: URL, agents: AgentPool): Promise<RawResponse> {
  try {
    if (request.http2 === 'require' && request.socketPath !== undefined) {
      throw new UsageError(`${request.method} ${maskUrl(url.href)} says HTTP/2, which reqflow does not speak over --unix-socket`, { hint: 'remove HTTP/2 from the request line' });
    }
    checkHeaderFields(request.method, url, request.headers, request.body);
  } catch (error) {
    return Promise.reject(error);
  }
  // Over a Unix socket: HTTP/1.1, no proxy (docs/cli.md).
  const mode = request.http2 ?? (agents.speaksOnlyHttp2(url) ? 'require' : undefined);
  // HTTP/2 is loaded only for a request that may use it.
  if (mode !== undefined && mode !== 'never' && request.socketPath === undefined) return import('./http2-hop.js').then(({ onceMaybeHttp2 }) => onceMaybeHttp2(request, url, agents, mode, () => onceHttp1Hop(request, url, agents)));
  return onceHttp1Hop(request, url, agents);
}

/** An HTTP/1.1 hop, spoken again in HTTP/2 when an https:// server refuses HTTP/1.1 by ALPN. */
function onceHttp1Hop(request: OutgoingRequest, url: URL, agents: AgentPool): Promise<RawResponse> {
  // Only an https:// hop can be refused by ALPN: any other is the plain hop, with no promise of ours around it.
  if (request.http2 !== undefined || url.protocol !== 'https:' || request.socketPath !== undefined) return onceHttp1(request, url, agents);
  return onceHttp1(request, url, agents).catch((error: unknown) => {
    // An HTTP/2-only gateway refuses HTTP/1.1 by ALPN before any request byte was sent: it is
    // then spoken to in HTTP/2, as curl does, and remembered for the rest of the run.
    if (!refusedHttp1(error)) throw error;
    agents.rememberOnlyHttp2(url);
    request.onProtocol?.(url, '2');
    return once(request, url, agents);
  });
}

/** A TLS `no_application_protocol` alert (RFC 7301 §3.2, alert 120): the server does not speak what ALPN offered. */
function refusedHttp1(error: unknown): boolean {
  const cause = ((error as { cause?: unknown }).cause ?? error) as NodeJS.ErrnoException;
  return cause.code === 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL' || /SSL alert number 120\b/.test(String(cause.message));
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
