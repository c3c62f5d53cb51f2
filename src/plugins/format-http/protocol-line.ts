/**
 * The words of a `ProtocolLineError` (request-line.ts): httpyac's request line of a protocol
 * reqflow has no client for (`GRPC`, `MQTT`, `MQTTS`, `AMQP`), or an `SSE` request with what
 * httpyac's EventSource never sends (a body; an `Event:` line, which only picks the events it
 * shows). Loaded only when a file has such a line.
 */
import { ParseError } from '../../core/errors/index.js';
import type { ProtocolLineError } from './request-line.js';

export function protocolLineError(error: ProtocolLineError): ParseError {
  const { file, line, refused } = error;
  if (refused === 'body') {
    return new ParseError(file, line, 1, 'an SSE request sends no body: httpyac sends it as a GET without one', {
      hint: 'remove the body, or write POST URL with # @streaming true to stream the answer to a request with a body',
    });
  }
  if (refused === 'Event') {
    return new ParseError(file, line, 1, "an SSE request's Event: line names the events httpyac shows and is not sent; reqflow shows every event", {
      hint: 'remove the Event: line (--filter picks from the events\' data)',
    });
  }
  // MQTTS is MQTT over TLS: the client is MQTT's.
  const client = refused === 'GRPC' ? 'gRPC' : refused.slice(0, 4);
  return new ParseError(file, line, 1, `${refused} requests (httpyac's ${client} client) are not supported: reqflow has no ${client} client and will not send this as HTTP`, {
    hint: 'send it with httpyac; reqflow sends HTTP, SSE (server-sent events) and WS (WebSocket) requests',
  });
}
