/**
 * The socket under an HTTP/2 session, which reqflow opens itself (http2.ts hands it to Node by
 * `createConnection`) so that it can destroy it. Node's session closes its socket only once what
 * the socket is writing has gone: a session destroyed while the server reads nothing more (an
 * upload it stopped taking) keeps its socket, the bytes queued in it — the body, tens of MiB —
 * and the process alive until the server lets go, whatever reqflow's time-out said.
 */
import type { ClientHttp2Session } from 'node:http2';
import type { Duplex } from 'node:stream';

/** What is read of a socket (a net.Socket or a TLSSocket; `_handle`: its TCP or TLS wrap). */
export interface SocketCounters {
  readonly bytesRead: number;
  readonly bytesWritten: number;
  readonly _handle?: { readonly writeQueueSize?: unknown } | null;
}

/** Bytes handed to the socket and not yet written; `undefined` where the socket does not say (a JavaScript stream). */
export function waitingToBeWritten(socket: SocketCounters): number | undefined {
  const size = socket._handle?.writeQueueSize;
  return typeof size === 'number' ? size : undefined;
}

/** Whether a session's socket holds bytes the server has not taken (`false` where it does not say). */
export function socketHoldsBytes(session: ClientHttp2Session): boolean {
  return (waitingToBeWritten(session.socket as unknown as SocketCounters) ?? 0) > 0;
}

/**
 * Destroys `session`, then `sockets` (its socket, and a proxy's tunnel under it) unless Node can
 * close them itself: nothing waits to be written. A socket that does not say is destroyed too.
 * With nothing waiting, Node's own close is left to run: its GOAWAY and the socket's end.
 */
export function releaseSession(session: ClientHttp2Session, sockets: readonly Duplex[]): void {
  if (!session.destroyed) session.destroy();
  const [socket] = sockets;
  if (socket === undefined || socket.destroyed || waitingToBeWritten(socket as unknown as SocketCounters) === 0) return;
  for (const part of sockets) part.destroy();
}
