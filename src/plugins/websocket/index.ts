import type { Plugin } from '../../pipeline/plugin.js';
import { checkMessages, openWebSocket } from './connect.js';
import { webSocketScript } from './script.js';

/**
 * WebSocket requests (JetBrains' `WEBSOCKET url`, messages separated by `===`): the upgrade goes
 * out with the request's headers, TLS and proxy; each message the server sends is an event,
 * printed as it arrives (`-o json`: one event record each); the request ends when the server
 * closes, at `--max-events`, at `--stream-timeout`, or with Ctrl-C.
 */
const plugin: Plugin = {
  name: 'websocket',
  stages: {
    send: async (ctx) => {
      if (ctx.response) return ctx;
      const { body, webSocket } = ctx.spec;
      // restcli `.ws` files give their messages one by one (templates resolved as each goes);
      // JetBrains' are the body, resolved with it.
      const steps = webSocket?.steps ?? webSocketScript(typeof body === 'string' || body === undefined ? body : body.toString('utf8'));
      checkMessages(ctx, steps, webSocket !== undefined);
      const { response, close } = await openWebSocket(ctx, steps, webSocket !== undefined, webSocket?.subprotocol);
      ctx.response = response;
      ctx.state.websocket = close;
      // Any answer but 101 (a 200 too) refused the upgrade: nothing was sent or waited for (RFC 6455 §4.1).
      if (!response.events) ctx.failed = true;
      return ctx;
    },
    render: async (ctx) => {
      const response = ctx.response;
      if (ctx.rendered || !response?.events) return ctx; // a refused upgrade renders as the response it is
      const close = ctx.state.websocket as () => void;
      try {
        await ctx.report.stream(ctx, response.events, close);
      } finally {
        close();
      }
      return ctx;
    },
  },
};
export default plugin;
