// PLACEHOLDER: replaced by the auth-custom implementation (see issues). Fails loudly if reached.
import { ReqflowError } from '../../core/errors/index.js';
import type { Plugin } from '../../core/pipeline.js';

const plugin: Plugin = {
  name: 'auth-custom',
  stages: {
    auth: () => {
      throw new ReqflowError('auth-custom is not implemented yet');
    },
  },
};
export default plugin;
