// postman-collection ships its types without naming them in its package.json.
/// <reference path="../../../node_modules/postman-collection/types/index.d.ts" />

// Postman's `{{$dynamic}}` variables, by name (the SDK's own list; its index does not export it).
declare module 'postman-collection/lib/superstring/dynamic-variables.js' {
  const variables: Record<string, { description: string }>;
  export default variables;
}
