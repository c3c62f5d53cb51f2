const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

/** RFC 9110 §9.2.2: sending one of these twice has the effect of sending it once. */
export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}

/**
 * Whether a request that got no answer goes once more, on a new connection — HTTP/1.1's hop and
 * HTTP/2's alike, and never a second time (`resent`): a server that does it again is answered with
 * its failure. `unprocessed`: the server said it did not act on it (HTTP/2's REFUSED_STREAM, a
 * GOAWAY below its stream) or none of it left reqflow, so any method goes again. Else a kept-alive
 * connection failed under it, and the server may have acted on it: only an idempotent method.
 */
export function sendsAgain(method: string, unprocessed: boolean, resent: boolean): boolean {
  return !resent && (unprocessed || isIdempotent(method));
}
