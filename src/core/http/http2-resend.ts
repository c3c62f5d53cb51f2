/**
 * Whether an HTTP/2 request that failed before any answer goes once more on a new connection, and
 * the words for it. Loaded with the HTTP/2 hop (http2-hop.ts) only.
 *
 * Provably not processed, so sent again whatever the method: its stream above the last one a
 * GOAWAY says the server processed (RFC 9113 §6.8), a stream the server reset with REFUSED_STREAM
 * (§8.7), or a stream none of whose bytes left reqflow — the connection was closing, or nghttp2 had
 * ended it over the server's protocol error, before its frames were written (nghttp2 refuses such a
 * stream itself, with REFUSED_STREAM too). Else, a connection gone under a stream that had carried
 * another request before it: the server may have acted on it, so only an idempotent method goes
 * again — HTTP/1.1's rule for a kept-alive connection closed as the request went out (one-hop.ts),
 * the same function deciding (idempotent.ts). Once, either way.
 */
import { NetworkError } from '../errors/index.js';
import type { Target } from './network-errors.js';

/** How a stream went unanswered, as far as sending it again goes. */
export type Unanswered = { kind: 'goaway'; lastStreamId: number; streamId: number } | { kind: 'refused' } | { kind: 'unsent' } | { kind: 'closed' };

/** What is known of a stream that failed before its answer. */
export interface StreamFate {
  /** Its id; none if it was never submitted. */
  id: number | undefined;
  /** Whether any byte went to the socket from the stream's submission to its failure (not necessarily its own). */
  left: boolean;
  /** Whether the connection was gone (its session destroyed) when the stream failed. */
  connectionGone: boolean;
  /** The last stream id of a GOAWAY the server sent on the connection, if it sent one. */
  lastStreamId: number | undefined;
}

const REFUSED_STREAM = 7;

/**
 * Failures that come from the connection's side. A time-out, a cancel, a flood of 1xx heads or a
 * file body that changed are reqflow's own decisions: never sent again.
 */
const CONNECTION_FAILURES = new Set(['ECONNRESET', 'EPIPE', 'ERR_HTTP2_STREAM_ERROR', 'ERR_HTTP2_SESSION_ERROR', 'ERR_HTTP2_STREAM_CANCEL', 'ERR_HTTP2_GOAWAY_SESSION', 'ERR_HTTP2_INVALID_SESSION', 'ERR_HTTP2_ERROR', 'REQFLOW_HTTP2_ENDED']);

/** How `error` left the stream unanswered, if it is one a request may be sent again for; `rstCode`: the stream's, read as it failed. */
export function unanswered(error: unknown, rstCode: number | undefined, fate: StreamFate): Unanswered | undefined {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (!CONNECTION_FAILURES.has(code)) return undefined;
  if (fate.lastStreamId !== undefined && fate.id !== undefined && fate.id > fate.lastStreamId) return { kind: 'goaway', lastStreamId: fate.lastStreamId, streamId: fate.id };
  if (!fate.left) return { kind: 'unsent' };
  // Any other reset is the server's answer to this request.
  if (code === 'ERR_HTTP2_STREAM_ERROR') return rstCode === REFUSED_STREAM ? { kind: 'refused' } : undefined;
  return fate.connectionGone && fate.id !== undefined && fate.id > 1 ? { kind: 'closed' } : undefined;
}

/** Whether the server is known not to have processed it: any method goes again. */
export function unprocessed(why: Unanswered): boolean {
  return why.kind !== 'closed';
}

/** What `-v` says the server did, before `: sent again on a new connection`. */
export function resendNote(why: Unanswered, method: string): string {
  switch (why.kind) {
    case 'goaway':
      return `sent GOAWAY before processing the ${method} (HTTP/2: the last stream it processed is ${why.lastStreamId}, the request's was ${why.streamId})`;
    case 'refused':
      return `refused the ${method} (HTTP/2 REFUSED_STREAM)`;
    case 'unsent':
      return `had ended the HTTP/2 connection before the ${method} went out`;
    case 'closed':
      return `closed the HTTP/2 connection before answering the ${method}`;
  }
}

/** A request the server did not process, sent again once on a new connection, and not processed again: exit 4 naming what the server did. */
export function notProcessedTwice(first: Unanswered, second: Unanswered, target: Target): NetworkError {
  const what = (why: Unanswered): string => (why.kind === 'goaway' ? 'GOAWAY' : why.kind === 'refused' ? 'REFUSED_STREAM' : 'connection ended before it went out');
  const said = what(first) === what(second) ? what(first) : `${what(first)}, then ${what(second)}`;
  return new NetworkError(`${target.method} ${target.url.origin}${target.url.pathname}: the server refused the request twice (HTTP/2 ${said})`, {
    hint: 'it did not process the request either time (shutting down or overloaded?): reqflow sends such a request again once, on a new connection, and no more',
  });
}
