// PLACEHOLDER: replaced by the sse implementation (see issues). Fails loudly if reached.
import { ReqflowError } from '../../core/errors/index.js';
import type { Plugin } from '../../core/pipeline.js';

const plugin: Plugin = {
  name: 'sse',
  stages: {
    auth: () => {
      throw new ReqflowError('sse is not implemented yet');
    },
  },
};
export default plugin;
