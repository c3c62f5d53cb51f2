import type { Plugin } from '../../pipeline/plugin.js';
import { indexHttpText } from './parse-http.js';

const plugin: Plugin = {
  name: 'format-http',
  stages: {
    parse: (ctx) => {
      // Lazily when the loop asks for it: each request is built again when its turn comes.
      const { visit } = ctx;
      const reparse = indexHttpText(ctx.text, ctx.file, visit ?? ((spec) => ctx.requests.push(spec)), ctx.warn);
      if (visit) ctx.reparse = reparse;
    },
  },
};
export default plugin;
