// PLACEHOLDER: replaced by the auth-basic implementation (see issues). Fails loudly if reached.
import { ReqflowError } from '../../core/errors/index.js';
import type { Plugin } from '../../core/pipeline.js';

const plugin: Plugin = {
  name: 'auth-basic',
  stages: {
    auth: () => {
      throw new ReqflowError('auth-basic is not implemented yet');
    },
  },
};
export default plugin;
