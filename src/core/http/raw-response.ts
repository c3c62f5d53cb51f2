import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';

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
  /** Calls `onIdle` when the body has been silent for the request's time-out; returns the remover. */
  watchIdle(onIdle: () => void): () => void;
  /** The idle time-out in force, for messages. */
  idleTimeoutMs(): number;
}

/** An HTTP/1.x response as a {@link RawResponse}. */
export function fromIncomingMessage(res: IncomingMessage): RawResponse {
  const socket = res.socket;
  return {
    statusCode: res.statusCode ?? 0,
    statusMessage: res.statusMessage ?? '',
    httpVersion: res.httpVersion,
    headers: res.headers,
    body: res,
    watchIdle(onIdle) {
      // Keep-alive sockets serve many responses: the listener goes when this body is done.
      socket?.on('timeout', onIdle);
      return () => socket?.removeListener('timeout', onIdle);
    },
    idleTimeoutMs: () => socket?.timeout ?? 0,
  };
}
