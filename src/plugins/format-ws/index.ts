import type { Plugin } from '../../pipeline/plugin.js';
import { parseWsText } from './parse-ws.js';

const plugin: Plugin = {
  name: 'format-ws',
  stages: {
    parse: (ctx) => {
      ctx.requests.push(...parseWsText(ctx.text, ctx.file));
    },
  },
};
export default plugin;
