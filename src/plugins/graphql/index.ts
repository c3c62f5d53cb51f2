import type { Plugin } from '../../pipeline/plugin.js';
import { renderGraphql } from './render.js';
import { sendGraphql } from './send.js';
import { transformGraphql } from './transform.js';

/**
 * GraphQL mode (`# @protocol graphql`): the body is GraphQL text, parsed locally, sent as
 * `POST {"query", "operationName", "variables"}`; responses show `data` and readable `errors`.
 * Subscriptions stream over SSE, or over graphql-ws with `# @transport ws`.
 */
const plugin: Plugin = {
  name: 'graphql',
  stages: {
    transform: transformGraphql,
    send: sendGraphql,
    render: renderGraphql,
  },
};
export default plugin;
