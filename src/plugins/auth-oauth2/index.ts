// PLACEHOLDER: replaced by the auth-oauth2 implementation (see issues). Fails loudly if reached.
import { ReqflowError } from '../../core/errors/index.js';
import type { Plugin } from '../../core/pipeline.js';

const plugin: Plugin = {
  name: 'auth-oauth2',
  stages: {
    auth: () => {
      throw new ReqflowError('auth-oauth2 is not implemented yet');
    },
  },
};
export default plugin;
