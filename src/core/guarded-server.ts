/**
 * The HTTP server of reqflow's own servers (`reqflow mock`, `reqflow proxy`), bounded against
 * clients that hold a connection without finishing a request head: one that connects and never
 * sends a byte, and one that drips its head a byte at a time (slowloris). Either is dropped
 * after {@link CLIENT_HEAD_TIMEOUT_MS} (Node answers a late head with `408`), so a few hundred of
 * them cannot keep sockets for ever while everyone else is served. A head Node's parser refuses
 * (a control character in a header, two `Content-Length`s, over 16 KiB, too late) gets Node's
 * own answer, and the server's log a line saying so ({@link RefusedHead}).
 */
import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** How long a client has to send a whole request head, counted from its first byte or its connection. */
const CLIENT_HEAD_TIMEOUT_MS = 10_000;

/** What Node's parser puts on the errors of a head it refuses: its code and llhttp's reason. */
type ParserError = Error & { code?: string; reason?: string };

/** The status Node answers a refused head with (what it writes when no one listens to 'clientError'). */
function statusOf(error: ParserError): number {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 431;
  if (error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return 413;
  return error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
}

/** Why, in words: llhttp's reason is a fixed text of its own, never the client's bytes (which may hold a credential). */
function reasonOf(error: ParserError): string {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 'its head is over 16 KiB';
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return `its head did not arrive within ${CLIENT_HEAD_TIMEOUT_MS / 1000} s`;
  // llhttp's reasons are its own fixed ASCII texts; anything else (never expected) is not shown.
  const reason = error.reason ?? error.code ?? '';
  return `not HTTP Node's parser reads (${/^[\x20-\x7e]{1,100}$/.test(reason) ? reason : 'malformed'})`;
}

/**
 * `a request from 127.0.0.1:50312: 400, not HTTP Node's parser reads (Invalid header value char)`:
 * the line a server logs for a head its parser refused.
 */
export type RefusedHead = (line: string) => void;

/** `refused` hears of each head Node's parser refused (not of a client that left: nothing was answered). */
export function createGuardedServer(refused?: RefusedHead): Server {
  // Node's defaults are 60 s, checked every 30 s: a minute and a half per dripping client.
  const server = createServer({ headersTimeout: CLIENT_HEAD_TIMEOUT_MS, connectionsCheckingInterval: 1_000 });
  server.on('connection', (socket) => {
    // Node times a head out only once its first byte came: a client that sends nothing is ours to end.
    const timer = setTimeout(() => void (socket.bytesRead === 0 && socket.destroy()), CLIENT_HEAD_TIMEOUT_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
  server.on('clientError', (error: ParserError, socket: Duplex & { remoteAddress?: string; remotePort?: number; _httpMessage?: { headersSent?: boolean } | null }) => {
    // As Node does without a listener: answer unless a response is already under way on this connection, then close.
    if (socket.writable && !socket._httpMessage?.headersSent) {
      const status = statusOf(error);
      socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`);
      if (error.code !== 'ECONNRESET') refused?.(`a request from ${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}: ${status}, ${reasonOf(error)}`);
    }
    socket.destroy(error);
  });
  return server;
}
