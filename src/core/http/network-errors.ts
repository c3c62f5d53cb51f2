import { NetworkError, ReqflowError } from '../errors/index.js';
import { maskUrl } from '../mask.js';
import { toTlsError, type TlsTarget } from './tls-errors.js';
import { isIdempotent } from './idempotent.js';

/** What the user's request was, for messages: `GET https://host/path`. */
export interface Target extends TlsTarget {
  method: string;
  /** `--unix-socket`: the connection goes there, not to the URL's host. */
  socketPath?: string;
  /** The proxy the request goes through: the connection is to it, not to the URL's host. */
  proxy?: URL;
}

function hostOf(target: Target): string {
  return target.socketPath !== undefined ? `the Unix socket ${target.socketPath}` : target.url.host;
}

/** Failures to reach a Unix socket, which have their own causes. */
function socketError(code: string, target: Target & { socketPath: string }, error: unknown): NetworkError | undefined {
  const path = target.socketPath;
  if (code === 'ENOENT') return new NetworkError(`no Unix socket at ${path}`, { hint: 'is the daemon running? check the path given to --unix-socket', cause: error });
  if (code === 'EACCES') return new NetworkError(`permission denied on the Unix socket ${path}`, { hint: 'your user may not use this socket (for Docker: the docker group)', cause: error });
  if (code === 'ECONNREFUSED') return new NetworkError(`connection refused by the Unix socket ${path}`, { hint: 'nothing is listening on it: is the daemon running?', cause: error });
  if (code === 'ENOTSOCK') return new NetworkError(`${path} is not a Unix socket`, { hint: 'check the path given to --unix-socket', cause: error });
  return undefined;
}

/**
 * The socket error's code. The SOCKS client of the HTTP/1.1 agent reports a failure to reach the
 * proxy with the socket error's message only (`connect ECONNREFUSED 127.0.0.1:1080`).
 */
function socketCode(error: NodeJS.ErrnoException, proxy: URL | undefined): string {
  if (error.code !== undefined || !proxy?.protocol.startsWith('socks')) return error.code ?? '';
  return /^(?:connect|getaddrinfo) ([A-Z_]+)\b/.exec(String(error.message))?.[1] ?? '';
}

const DNS_FAILURES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME']);

/** Failures to reach the proxy itself (the server behind it answers through the proxy). */
function proxyError(code: string, proxy: URL, error: NodeJS.ErrnoException): NetworkError | undefined {
  const hint = 'check the proxy: the request\'s # @proxy, --proxy, the profile\'s proxy, or HTTP(S)_PROXY / ALL_PROXY';
  if (code === 'ECONNREFUSED') return new NetworkError(`connection refused by the proxy ${maskUrl(proxy.href)}`, { hint, cause: error });
  // socks5:// and socks4:// resolve the URL's host here too: the failed lookup names its host.
  const named = (error as { hostname?: unknown }).hostname;
  if (DNS_FAILURES.has(code) && (typeof named !== 'string' || named === proxy.hostname.replace(/^\[|\]$/g, ''))) return new NetworkError(`cannot resolve the proxy host "${proxy.hostname}" (DNS lookup failed)`, { hint, cause: error });
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return new NetworkError(`the proxy ${maskUrl(proxy.href)} is unreachable`, { hint, cause: error });
  // Bytes that are no HTTP come from the proxy we talk to (its answer to CONNECT, or what it relays): it is named, not the server behind it.
  if ((code === 'HPE_INVALID_CONSTANT' || code === 'HPE_INVALID_VERSION') && proxy.protocol.startsWith('http')) {
    return new NetworkError(`the proxy ${maskUrl(proxy.href)} did not answer with valid HTTP`, { hint: `is it an HTTP proxy? ${hint}`, cause: error });
  }
  return undefined;
}

/**
 * Turns a Node socket/TLS error into one clear line with the right exit code:
 * network problems are exit 4, TLS problems exit 5.
 */
export function toRequestError(error: unknown, target: Target, timeoutMs: number): ReqflowError {
  if (error instanceof ReqflowError) return error;
  const err = error as NodeJS.ErrnoException;
  const code = err.code ?? '';
  const host = hostOf(target);
  const tls = toTlsError(error, target);
  if (tls) return tls;
  const message = String(err.message ?? err);
  if (target.socketPath !== undefined) {
    const failed = socketError(code, { ...target, socketPath: target.socketPath }, error);
    if (failed) return failed;
  }
  if (target.proxy !== undefined) {
    const failed = proxyError(socketCode(err, target.proxy), target.proxy, err);
    if (failed) return failed;
  }
  switch (code) {
    case 'ECONNREFUSED':
      return new NetworkError(`connection refused by ${host}`, { hint: 'is the server running and listening on that port?', cause: error });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new NetworkError(`cannot resolve host "${target.url.hostname}" (DNS lookup failed)`, { hint: 'check the host name in the URL and your network', cause: error });
    case 'ETIMEDOUT':
    case 'ESOCKETTIMEDOUT':
    case 'REQFLOW_TIMEOUT':
      return new NetworkError(`${target.method} ${target.url.origin}${target.url.pathname} timed out after ${timeoutMs} ms`, { hint: 'raise it with --timeout MS (or # @timeout in the request)', cause: error });
    case 'REQFLOW_CONNECT_TIMEOUT':
      return new NetworkError(`${target.method} ${target.url.origin}${target.url.pathname}: no connection within ${timeoutMs} ms`, { hint: 'raise # @connection-timeout of the request', cause: error });
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return new NetworkError(`connection to ${host} was reset`, {
        // Never sent again on reqflow's own: the server may have acted on it before resetting.
        hint:
          target.reusedSocket !== true
            ? 'the server closed the connection before the response was complete'
            : isIdempotent(target.method)
              ? `the server closed the kept-alive connection as the ${target.method} went out, and again when it was sent once more (--retry N sends it again)`
              : `the server closed the kept-alive connection as the ${target.method} went out: it may or may not have reached the server (--retry N --retry-all sends it again)`,
        cause: error,
      });
    case 'ABORT_ERR':
      return new NetworkError(`${target.method} ${target.url.origin}${target.url.pathname} was cancelled`, { cause: error });
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new NetworkError(`host ${host} is unreachable`, { cause: error });
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_INVALID_VERSION':
      return new NetworkError(`${host} did not answer with valid HTTP`, {
        hint:
          target.reusedSocket !== true
            ? 'is it an HTTP server? (https:// against a plain HTTP port, or the reverse?)'
            : isIdempotent(target.method)
              ? `on a kept-alive connection, and again when the ${target.method} was sent once more on a new one: a broken server`
              : `on a kept-alive connection it had answered on before (the rest of a reply nobody asked for?): the ${target.method} may or may not have reached the server (--retry N --retry-all sends it again)`,
        cause: error,
      });
    case 'HPE_CR_EXPECTED':
      // Not read leniently: Node reads a bare LF only with every other leniency of its parser (docs/design-decisions.md).
      return new NetworkError(`${host} ended a line with a bare LF where HTTP/1.1 writes CRLF (after the ${/after (.+)$/.exec(message)?.[1] ?? 'response line'})`, {
        hint: 'a server that does not speak HTTP/1.1 as written (RFC 9112 §2.2); curl and browsers guess that a bare LF ends a line, reqflow reads a response only as it was sent',
        cause: error,
      });
    case 'HPE_HEADER_OVERFLOW':
      return new NetworkError(`${host} sent response headers over the 16 KiB limit`, { hint: 'a broken or hostile server (or a huge cookie); reqflow does not read past the limit', cause: error });
    case 'REQFLOW_INTERIM_FLOOD':
      return new NetworkError(`${target.method} ${target.url.origin}${target.url.pathname}: the server sent ${message}`, { hint: 'a broken or hostile server: it never answers the request', cause: error });
    case 'ERR_HTTP2_STREAM_ERROR':
      return new NetworkError(`${host} reset the HTTP/2 stream of ${target.method} ${target.url.origin}${target.url.pathname}: ${message.replace(/^Stream closed with error code /, '')}`, { cause: error });
    case 'ERR_HTTP2_GOAWAY_SESSION':
    case 'ERR_HTTP2_SESSION_ERROR':
    case 'ERR_HTTP2_ERROR':
    case 'ERR_HTTP2_INVALID_SESSION':
    case 'ERR_HTTP2_STREAM_CANCEL':
      return new NetworkError(`the HTTP/2 connection to ${host} failed: ${message.split('\n')[0]}`, { hint: 'the server closed or broke the connection; -v shows the request', cause: error });
    case 'REQFLOW_HTTP2_ENDED':
      // Which error nghttp2 found is in the GOAWAY it wrote, which Node does not show (http2-ended.ts).
      return new NetworkError(`${target.method} ${target.url.origin}${target.url.pathname}: the HTTP/2 connection to ${host} was ended by a protocol error in what the server sent (nghttp2 closed it with GOAWAY; Node does not say which error)`, {
        hint: 'a broken or hostile server: a frame HTTP/2 forbids — over the maximum frame size, DATA on stream 0, a header block that does not decode',
        cause: error,
      });
    case 'REQFLOW_BAD_STATUS':
      return new NetworkError(`${host} answered with status ${message}: not an HTTP status code (100–999)`, { hint: 'a broken or hostile server: its response cannot be read as a success or a failure', cause: error });
    case 'REQFLOW_AFTER_CODED_END':
      return new NetworkError(`${host} sent bytes after the end of its ${message} body`, { hint: 'its Content-Encoding does not cover them, and a body is shown only as it was sent (curl refuses it too)', cause: error });
    case 'REQFLOW_TOO_MANY_CODINGS':
      return new NetworkError(`${host} sent a body in ${message}`, { hint: 'a broken or hostile server: reqflow undoes 5 at most, as curl does', cause: error });
    default:
      // zlib's and brotli's failures: the body is not what its Content-Encoding says (or was cut short).
      // Brotli's decoder errors come as ERR__ERROR_FORMAT_…, ERR__ERROR_DICTIONARY_…, and so on.
      if (code.startsWith('Z_') || code.startsWith('ERR_BROTLI') || code.startsWith('ERR__ERROR_')) return new NetworkError(`${host} sent a body that does not decode as its Content-Encoding says (${message.split('\n')[0]})`, { hint: 'the server mislabels its body, or cut it short; -v shows the header', cause: error });
      if (code.startsWith('HPE_')) return new NetworkError(`${host} sent a malformed HTTP response: ${message.replace(/^Parse Error: /, '').split('\n')[0]} (${code})`, { hint: 'a broken or hostile server, or a proxy between: reqflow reads only well-formed HTTP/1.1', cause: error });
      return new NetworkError(`request to ${host} failed: ${message.split('\n')[0]}${code ? ` (${code})` : ''}`, { cause: error });
  }
}
