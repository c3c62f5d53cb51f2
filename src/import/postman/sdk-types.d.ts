// postman-collection ships its types without naming them in its package.json.
/// <reference path="../../../node_modules/postman-collection/types/index.d.ts" />
