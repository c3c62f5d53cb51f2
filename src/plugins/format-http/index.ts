import type { Plugin } from '../../pipeline/plugin.js';
import { HeaderLineError, indexHttpText } from './parse-http.js';
import { ProtocolLineError } from './request-line.js';

const plugin: Plugin = {
  name: 'format-http',
  stages: {
    parse: (ctx) => {
      // Lazily when the loop asks for it: each request is built again when its turn comes.
      const { visit } = ctx;
      try {
        const reparse = indexHttpText(ctx.text, ctx.file, visit ?? ((spec) => ctx.requests.push(spec)), ctx.warn);
        if (visit) ctx.reparse = reparse;
      } catch (error) {
        // A line that is no header: its hint is worded by a module of its own, loaded then.
        if (error instanceof HeaderLineError) return import('./header-line-hint.js').then(({ withHeaderLineHint }) => Promise.reject(withHeaderLineHint(error)));
        if (error instanceof ProtocolLineError) return import('./protocol-line.js').then(({ protocolLineError }) => Promise.reject(protocolLineError(error)));
        throw error;
      }
    },
  },
};
export default plugin;
