// PLACEHOLDER: replaced by the auth-apikey implementation (see issues). Fails loudly if reached.
import { ReqflowError } from '../../core/errors/index.js';
import type { Plugin } from '../../core/pipeline.js';

const plugin: Plugin = {
  name: 'auth-apikey',
  stages: {
    auth: () => {
      throw new ReqflowError('auth-apikey is not implemented yet');
    },
  },
};
export default plugin;
