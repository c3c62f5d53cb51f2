// PLACEHOLDER: replaced by the graphql implementation (see issues). Fails loudly if reached.
import { ReqflowError } from '../../core/errors/index.js';
import type { Plugin } from '../../core/pipeline.js';

const plugin: Plugin = {
  name: 'graphql',
  stages: {
    auth: () => {
      throw new ReqflowError('graphql is not implemented yet');
    },
  },
};
export default plugin;
