// PLACEHOLDER: replaced by the auth-bearer implementation (see issues). Fails loudly if reached.
import { ReqflowError } from '../../core/errors/index.js';
import type { Plugin } from '../../core/pipeline.js';

const plugin: Plugin = {
  name: 'auth-bearer',
  stages: {
    auth: () => {
      throw new ReqflowError('auth-bearer is not implemented yet');
    },
  },
};
export default plugin;
