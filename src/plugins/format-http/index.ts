import type { Plugin } from '../../pipeline/plugin.js';
import { parseHttpText } from './parse-http.js';

const plugin: Plugin = {
  name: 'format-http',
  stages: {
    parse: (ctx) => {
      ctx.requests.push(...parseHttpText(ctx.text, ctx.file));
    },
  },
};
export default plugin;
