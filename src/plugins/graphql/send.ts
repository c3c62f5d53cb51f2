import type { RequestContext } from '../../core/pipeline.js';
import { isEventStream, readEventStream } from '../sse/read-events.js';
import { graphqlState } from './transform.js';

/**
 * Streaming operations only (plain queries and mutations go through core-http):
 * GraphQL over SSE (a POST answered with `text/event-stream`, graphql-sse's "distinct
 * connections" mode) or graphql-ws over a WebSocket.
 */
export async function sendGraphql(ctx: RequestContext): Promise<RequestContext> {
  const state = graphqlState(ctx);
  if (ctx.response || !state || state.transport === 'http') return ctx;
  if (state.transport === 'ws') {
    const { openWebSocket } = await import('./ws-transport.js');
    const { response, close } = await openWebSocket(ctx, state.payload);
    state.close = close;
    ctx.response = response;
    return ctx;
  }
  const { spec } = ctx;
  const response = await ctx.http.send({ method: spec.method, url: spec.url, headers: spec.headers, ...(spec.body !== undefined ? { body: spec.body } : {}), streaming: true });
  // A server that refuses (400 with errors, 404) answers with a plain document: rendered as a response.
  if (response.status < 300 && response.stream && isEventStream(response)) response.events = readEventStream(response.stream);
  ctx.response = response;
  return ctx;
}
