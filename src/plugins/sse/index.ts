import { getHeader, setHeader } from '../../core/headers.js';
import type { Plugin } from '../../pipeline/plugin.js';
import { sendForEvents } from './read-events.js';

/**
 * `# @streaming true`: server-sent events, each printed the moment it arrives. The request is
 * sent as written (GET, or POST with a body for APIs that stream their answer), with
 * `Accept: text/event-stream` unless the request sets its own.
 */
const plugin: Plugin = {
  name: 'sse',
  stages: {
    send: async (ctx) => {
      if (ctx.response) return ctx;
      const { spec } = ctx;
      if (getHeader(spec.headers, 'accept') === undefined) setHeader(spec.headers, 'Accept', 'text/event-stream');
      if (getHeader(spec.headers, 'cache-control') === undefined) setHeader(spec.headers, 'Cache-Control', 'no-cache');
      ctx.response = await sendForEvents(ctx);
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
      await ctx.report.stream(ctx, response.events, () => response.stream?.destroy());
      return ctx;
    },
  },
};
export default plugin;
