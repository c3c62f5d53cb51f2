/**
 * How a hop fails, for HTTP/1.1 (one-hop.ts) and HTTP/2 (http2-hop.ts) alike: coded errors, and
 * the one-line wording of a Node failure, whose texts load only when a request fails.
 */
import type { ReqflowError } from '../errors/index.js';
import type { Target } from './network-errors.js';
import type { OutgoingRequest } from './outgoing-request.js';

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

/** What an error of this hop names: the request, and whether a client certificate, a Unix socket or a proxy was in play. */
export function errorTarget(request: OutgoingRequest, url: URL): Target {
  const proxy = request.socketPath === undefined ? request.proxy?.forUrl(url) : undefined;
  return { method: request.method, url, clientCertificate: request.tls.cert !== undefined || request.tls.pfx !== undefined, ...(request.socketPath !== undefined ? { socketPath: request.socketPath } : {}), ...(proxy ? { proxy } : {}), ...(request.verifyAlways ? { verifyAlways: true } : {}) };
}


