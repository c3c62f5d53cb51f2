import { getHeader, setHeader } from '../../core/headers.js';
import type { Plugin, RequestContext } from '../../core/pipeline.js';
import { palette } from '../../core/render/colors.js';
import { writeMeta, writeResponseHead } from '../../core/render/meta.js';
import { consumeEvents, describeEnd } from './consume.js';
import { eventPrinter } from './print-event.js';
import { isEventStream, readEventStream } from './read-events.js';

/** GraphQL mode has its own streaming transports (subscriptions); this plugin is for plain SSE. */
export function wantsPlainStream(ctx: RequestContext): boolean {
  return ctx.spec.annotations.streaming === 'true' && ctx.spec.annotations.protocol?.toLowerCase() !== 'graphql';
}

/**
 * `# @streaming true`: server-sent events, each printed the moment it arrives. The request is
 * sent as written (GET, or POST with a body for APIs that stream their answer), with
 * `Accept: text/event-stream` unless the request sets its own.
 */
const plugin: Plugin = {
  name: 'sse',
  appliesTo: wantsPlainStream,
  stages: {
    send: async (ctx) => {
      if (ctx.response) return ctx;
      const { spec } = ctx;
      if (getHeader(spec.headers, 'accept') === undefined) setHeader(spec.headers, 'Accept', 'text/event-stream');
      if (getHeader(spec.headers, 'cache-control') === undefined) setHeader(spec.headers, 'Cache-Control', 'no-cache');
      const response = await ctx.http.send({ method: spec.method, url: spec.url, headers: spec.headers, ...(spec.body !== undefined ? { body: spec.body } : {}), streaming: true });
      if (response.status < 300 && response.stream && isEventStream(response)) response.events = readEventStream(response.stream);
      ctx.response = response;
      return ctx;
    },
    render: async (ctx) => {
      const response = ctx.response;
      if (ctx.rendered || !response) return ctx;
      if (!response.events) {
        // An error status or a plain document: the ordinary renderers show it as such.
        if (response.status < 300) ctx.warn(`"${ctx.spec.name}" asked for an event stream but the response is ${String(response.headers['content-type'] ?? 'untyped')}; showing it as a plain response`);
        return ctx;
      }
      const colors = palette(ctx.options.color);
      if (ctx.options.output === 'pretty') writeResponseHead(ctx, colors);
      const print = eventPrinter(ctx);
      const outcome = await consumeEvents(ctx, response.events, () => response.stream?.destroy(), (event) => print(event));
      if (ctx.options.output === 'pretty') writeMeta(ctx, colors.dim(`-- ${describeEnd(outcome)}`));
      ctx.rendered = true;
      return ctx;
    },
  },
};
export default plugin;
