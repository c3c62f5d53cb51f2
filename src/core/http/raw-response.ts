import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { watchSilence } from './silence-watch.js';

/**
 * A response as a transport hands it over, before reqflow's own handling (redirects, cookies,
 * decoding, counting): an HTTP/1.1 `IncomingMessage` and an HTTP/2 stream look alike here.
 */
export interface RawResponse {
  statusCode: number;
  statusMessage: string;
  /** `1.1`, or `2` for HTTP/2. */
  httpVersion: string;
  /** Lower-case names; no HTTP/2 pseudo-headers. */
  headers: IncomingHttpHeaders;
  /** The body as it arrives; `'aborted'` when the server cuts it off. */
  body: Readable;
  /** The trailer fields sent after the body (HTTP/1.1 chunked, HTTP/2), once it has ended; undefined when none came. */
  trailers(): IncomingHttpHeaders | undefined;
  /** Calls `onIdle` when the server has sent nothing of the body for the request's time-out (not while reqflow holds the body back); returns the remover. */
  watchIdle(onIdle: () => void): () => void;
  /** The idle time-out in force, for messages. */
  idleTimeoutMs(): number;
  /** Why the body was cut off, when the server's bytes broke HTTP's framing (a bad chunk size) rather than the connection closing. */
  framingError?(): Error | undefined;
  /**
   * A body that ends with the connection (no length, not chunked) ends the same whether the server
   * closed it or the connection was reset: the socket's error, if one came, says it was cut off.
   */
  resetBeforeEnd?(): Error | undefined;
}

/**
 * Fields Node keeps one of when a server repeats them (the first); reqflow does the same, as a
 * second `Content-Type` has no meaning a reader could use. Not `Location`: two that differ make a
 * redirect ambiguous (browsers refuse it), so both are kept for send.ts to see and `-v` to show.
 */
const SINGLE = new Set(['age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host', 'if-modified-since', 'if-unmodified-since', 'last-modified', 'max-forwards', 'proxy-authorization', 'referer', 'retry-after', 'server', 'user-agent']);

/**
 * The response's headers (or trailers: `raw` and `joined` are Node's lines and object of them)
 * with each repeated field kept line by line (`x-a: 1` and `x-a: 2` become `['1', '2']`), where
 * Node joins them with commas — which changes a value that holds a comma of its own (a date, a
 * quoted string). Fields sent once stay strings.
 */
function fieldsOf(raw: readonly string[], joined: IncomingHttpHeaders): IncomingHttpHeaders {
  // As many fields as lines: nothing was repeated (Node keeps one key per name), nothing to do.
  let fields = 0;
  for (const _ in joined) fields++;
  if (fields * 2 === raw.length) return joined;
  let repeated: Map<string, string[]> | undefined;
  const seen = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (!seen.has(name)) {
      seen.add(name);
      continue;
    }
    if (SINGLE.has(name) || name === 'set-cookie') continue; // set-cookie is an array already
    repeated ??= new Map();
    repeated.set(name, []);
  }
  if (!repeated) return joined; // the usual case: nothing repeated, nothing to do
  for (let i = 0; i < raw.length; i += 2) repeated.get((raw[i] as string).toLowerCase())?.push(raw[i + 1] as string);
  const headers: IncomingHttpHeaders = { ...joined };
  for (const [name, values] of repeated) headers[name] = values;
  return headers;
}

/**
 * An HTTP/1.x response as a {@link RawResponse}; `framingError` is the parser's failure after the
 * headers, if any, and `socketError` the connection's (a reset) once the headers were in.
 */
export function fromIncomingMessage(res: IncomingMessage, framingError: () => Error | undefined, socketError: () => Error | undefined): RawResponse {
  const socket = res.socket;
  // A HEAD's answer and a 204 or 304 have no body at all: nothing for a reset to cut.
  const closeDelimited = res.headers['content-length'] === undefined && res.headers['transfer-encoding'] === undefined && ![204, 304].includes(res.statusCode ?? 0) && (res as IncomingMessage & { req?: { method?: string } }).req?.method !== 'HEAD';
  return {
    ...(closeDelimited ? { resetBeforeEnd: socketError } : {}),
    statusCode: res.statusCode ?? 0,
    statusMessage: res.statusMessage ?? '',
    httpVersion: res.httpVersion,
    headers: fieldsOf(res.rawHeaders, res.headers),
    body: res,
    trailers: () => (res.rawTrailers.length > 0 ? fieldsOf(res.rawTrailers, res.trailers) : undefined),
    // Keep-alive sockets serve many responses: the listener goes when this body is in (or done with).
    watchIdle: (onIdle) => (socket ? watchSilence(socket, res, () => socket.timeout ?? 0, onIdle) : () => undefined),
    idleTimeoutMs: () => socket?.timeout ?? 0,
    framingError,
  };
}
