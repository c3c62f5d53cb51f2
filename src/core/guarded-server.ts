/**
 * The HTTP server of reqflow's own servers (`reqflow mock`, `reqflow proxy`), bounded against
 * clients that hold a connection without finishing a request head: one that connects and never
 * sends a byte, and one that drips its head a byte at a time (slowloris). Either is dropped
 * after {@link CLIENT_HEAD_TIMEOUT_MS} (Node answers a late head with `408`), so a few hundred of
 * them cannot keep sockets for ever while everyone else is served.
 */
import { createServer, type Server } from 'node:http';

/** How long a client has to send a whole request head, counted from its first byte or its connection. */
const CLIENT_HEAD_TIMEOUT_MS = 10_000;

export function createGuardedServer(): Server {
  // Node's defaults are 60 s, checked every 30 s: a minute and a half per dripping client.
  const server = createServer({ headersTimeout: CLIENT_HEAD_TIMEOUT_MS, connectionsCheckingInterval: 1_000 });
  server.on('connection', (socket) => {
    // Node times a head out only once its first byte came: a client that sends nothing is ours to end.
    const timer = setTimeout(() => void (socket.bytesRead === 0 && socket.destroy()), CLIENT_HEAD_TIMEOUT_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
  return server;
}
