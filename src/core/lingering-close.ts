/**
 * An answer to a client whose request body is still coming (a refused upload), closed the way
 * that lets the client read it. Closing a socket while the client's bytes wait unread in it
 * makes the kernel send a reset, and a reset makes the client's kernel throw away what it had
 * not read yet: the 413 itself. Node's own `Connection: close` closes right after the answer, so
 * it is written here instead: the answer and our end of the connection go out, the client's
 * bytes are still read (and dropped) until it closes its end or {@link LINGER_MS} pass.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';

/** How long a client that keeps sending after the answer is still read before it is cut off. */
const LINGER_MS = 2_000;

export function answerAndLinger(req: IncomingMessage, res: ServerResponse, status: number, json: unknown): void {
  const socket = req.socket;
  const body = JSON.stringify(json);
  // For the server's own log line: the answer bypasses `res`.
  res.statusCode = status;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  // Still read: Node's parser keeps taking the socket's bytes, and the request's are dropped.
  req.resume();
  const cutOff = setTimeout(() => socket.destroy(), LINGER_MS);
  cutOff.unref();
  socket.once('close', () => clearTimeout(cutOff));
}
