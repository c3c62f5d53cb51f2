import { activeFilter, filteredJson } from '../../core/render/filtered.js';
import { pipeTo } from '../../core/render/pipe.js';
import type { Plugin } from '../../core/pipeline.js';

/** `-o raw`: the body bytes unchanged and streamed; with a filter, its result like `jq -r`. */
const plugin: Plugin = {
  name: 'render-raw',
  stages: {
    render: async (ctx) => {
      if (ctx.rendered || !ctx.response) return ctx;
      const filter = activeFilter(ctx);
      if (filter) {
        const result = await filteredJson(ctx, filter);
        ctx.output.out(`${typeof result === 'string' ? result : JSON.stringify(result, null, 2)}\n`);
      } else if (ctx.response.stream && ctx.output.stream && ctx.response.body === undefined) {
        await pipeTo(ctx.response.stream, ctx.output.stream);
      } else {
        ctx.output.out(await ctx.readBody());
      }
      ctx.rendered = true;
      return ctx;
    },
  },
};
export default plugin;
