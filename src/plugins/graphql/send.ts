import type { RequestContext } from '../../pipeline/context.js';
import { sendForEvents } from '../sse/read-events.js';
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
  // A server that refuses (400 with errors, 404) answers with a plain document: rendered as a response.
  ctx.response = await sendForEvents(ctx);
  return ctx;
}
