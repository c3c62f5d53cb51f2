import { NetworkError, StreamViolation } from '../errors/index.js';
import { MAX_EVENT_BYTES } from '../stream-limits.js';

/**
 * What `ws` reports when a server breaks RFC 6455 after the upgrade (a close code it may not
 * send, a reason that is not UTF-8, a message past `maxPayload`, an unmasked-rule or opcode
 * violation): its errors carry a `WS_ERR_…` code. Said as the server's fault, not as a dropped
 * connection; undefined for any other error.
 */
export function webSocketProtocolError(error: unknown, host: string): NetworkError | undefined {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('WS_ERR_')) return undefined;
  if (code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
    return new StreamViolation(`the server sent a WebSocket message larger than ${MAX_EVENT_BYTES / 1024 / 1024} MiB`, { hint: 'reqflow closed the connection there (1009, message too big)', cause: error });
  }
  const what = error instanceof Error ? error.message : String(error);
  return new StreamViolation(`the WebSocket server at ${host} broke the protocol: ${what}`, { hint: 'reqflow closed the connection (RFC 6455: a client fails a connection that sends an invalid frame)', cause: error });
}
