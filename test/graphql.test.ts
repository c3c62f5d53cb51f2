import { parseRecords } from './helpers/records.js';
import { sessionFileFor } from './helpers/session-file.js';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startGraphqlServer, type GraphqlServer, type ReceivedOperation } from './servers/graphql-server.js';

let server: GraphqlServer;
const tmp = tempDir('reqflow-graphql-');
const stateDir = join(tmp.dir, 'state');
const env = { REQFLOW_STATE_DIR: stateDir };
const opts = { env, cwd: tmp.dir };

beforeAll(async () => {
  server = await startGraphqlServer();
  // A profile with a header for every request, and a session holding the bearer token.
  tmp.write('.profiles.json', JSON.stringify([{ name: 'default', variables: { baseUrl: server.url, userId: '2' }, headers: { 'X-Client': 'reqflow-tests' } }]));
  mkdirSync(dirname(sessionFileFor(stateDir, tmp.dir)), { recursive: true });
  writeFileSync(sessionFileFor(stateDir, tmp.dir), JSON.stringify({ version: 1, variables: { token: server.token }, data: {} }), { mode: 0o600 });
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

/** Writes a GraphQL request file: annotations, request line, headers, blank line, query. */
function gql(name: string, query: string, options: { annotations?: string[]; line?: string; headers?: string[] } = {}): string {
  const head = [...(options.annotations ?? []), '# @protocol graphql', options.line ?? 'POST {{baseUrl}}/graphql', ...(options.headers ?? [])];
  return tmp.write(name, `${head.join('\n')}\n\n${query}\n`);
}

function lastReceived(): ReceivedOperation {
  const last = server.received.at(-1);
  if (!last) throw new Error('the server received nothing');
  return last;
}

describe('GraphQL mode: the request', () => {
  test('a bare selection set is sent as POST {"query"} with Content-Type application/json; data is pretty-printed', async () => {
    const result = await runCli(['run', gql('hello.http', '{ hello(name: "Ada") }')], opts);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{\n  "hello": "Hello, Ada!"\n}\n');
    expect(result.stderr).toBe('HTTP/1.1 200 OK  ' + result.stderr.split('  ')[1]);
    const received = lastReceived();
    expect(received.method).toBe('POST');
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.params).toEqual({ query: '{ hello(name: "Ada") }' });
  });

  test('any other method on the request line is sent as POST, with a warning', async () => {
    const result = await runCli(['run', gql('get.http', '{ hello }', { line: 'GET {{baseUrl}}/graphql' })], opts);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('reqflow: warning: GraphQL requests are sent as POST; request "request-1" says GET');
    expect(lastReceived().method).toBe('POST');
  });

  test('a bare URL request line (no method written) is POST without a warning', async () => {
    const result = await runCli(['run', gql('bare.http', '{ hello }', { line: '{{baseUrl}}/graphql' })], opts);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('warning');
    expect(lastReceived().method).toBe('POST');
  });

  test('request headers, profile headers and auth headers go with the request; -v masks the token', async () => {
    const file = gql('auth.http', '{ secret whoami }', { annotations: ['# @auth bearer'], headers: ['X-Trace: abc-123'] });
    const result = await runCli(['run', file, '-v'], opts);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ secret: 'the eagle has landed', whoami: `Bearer ${server.token}` });
    const { headers } = lastReceived();
    expect(headers['x-trace']).toBe('abc-123');
    expect(headers['x-client']).toBe('reqflow-tests');
    expect(headers.authorization).toBe(`Bearer ${server.token}`);
    expect(result.stderr).toContain('Authorization: •••');
    expect(result.stderr).not.toContain(server.token);
  });

  test('an Authorization header with {{token}} from the session works too', async () => {
    const result = await runCli(['run', gql('auth-header.http', '{ secret }', { headers: ['Authorization: Bearer {{token}}'] })], opts);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ secret: 'the eagle has landed' });
  });

  test('{{var}} in the body is substituted first (profile and -e values)', async () => {
    const file = gql('subst.http', '{ user(id: "{{userId}}") { name } }');
    expect(JSON.parse((await runCli(['run', file], opts)).stdout)).toEqual({ user: { name: 'Alan Turing' } });
    expect(JSON.parse((await runCli(['run', file, '-e', 'userId=3'], opts)).stdout)).toEqual({ user: { name: 'Grace Hopper' } });
    expect(lastReceived().params.query).toBe('{ user(id: "3") { name } }');
  });

  test('a {{var}} nothing defines is exit 3 and nothing is sent', async () => {
    const before = server.received.length;
    const result = await runCli(['run', gql('undefined-var.http', '{ user(id: "{{nobody}}") { name } }')], opts);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('nobody');
    expect(server.received.length).toBe(before);
  });

  test('named queries with arguments, nested lists and enums', async () => {
    const query = 'query Admins {\n  users(role: ADMIN) {\n    name\n    posts { title tags }\n  }\n}';
    const result = await runCli(['run', gql('named.http', query)], opts);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ users: [{ name: 'Ada Lovelace', posts: [{ title: 'Notes on the Engine', tags: ['math', 'history'] }, { title: 'Poetical Science', tags: [] }] }] });
    // A single operation needs no operationName.
    expect(lastReceived().params.operationName ?? undefined).toBeUndefined();
  });

  test('mutation { ... } and mutation Name { ... }', async () => {
    const anonymous = await runCli(['run', gql('mutation.http', 'mutation { addUser(name: "Barbara Liskov", email: "barbara@example.com") { name role } }')], opts);
    expect(anonymous.code).toBe(0);
    expect(JSON.parse(anonymous.stdout)).toEqual({ addUser: { name: 'Barbara Liskov', role: 'USER' } });
    const named = await runCli(['run', gql('mutation-named.http', 'mutation AddEngineer {\n  addUser(name: "Edsger Dijkstra", email: "ewd@example.com", role: USER) { id name role }\n}')], opts);
    expect(named.code).toBe(0);
    expect(JSON.parse(named.stdout).addUser).toMatchObject({ name: 'Edsger Dijkstra', role: 'USER' });
  });

  test('fragment definitions after the operation', async () => {
    const query = 'query {\n  user(id: "1") { ...UserFields posts { ...PostFields } }\n}\n\nfragment UserFields on User { name role }\nfragment PostFields on Post { id }';
    const result = await runCli(['run', gql('fragments.http', query)], opts);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ user: { name: 'Ada Lovelace', role: 'ADMIN', posts: [{ id: 'p1' }, { id: 'p2' }] } });
  });

  test('directives: @include(if: $withEmail) driven by # @variables', async () => {
    const query = 'query User($id: ID!, $withEmail: Boolean!) {\n  user(id: $id) { name email @include(if: $withEmail) }\n}';
    const withEmail = await runCli(['run', gql('include-on.http', query, { annotations: ['# @variables {"id": "1", "withEmail": true}'] })], opts);
    expect(withEmail.code).toBe(0);
    expect(JSON.parse(withEmail.stdout)).toEqual({ user: { name: 'Ada Lovelace', email: 'ada@example.com' } });
    const without = await runCli(['run', gql('include-off.http', query, { annotations: ['# @variables {"id": "1", "withEmail": false}'] })], opts);
    expect(JSON.parse(without.stdout)).toEqual({ user: { name: 'Ada Lovelace' } });
    expect(lastReceived().params.variables).toEqual({ id: '1', withEmail: false });
  });

  test('# @variables is {{var}}-substituted before it is parsed (a number stays a number)', async () => {
    const query = 'query Some($limit: Int) { users(limit: $limit) { id } }';
    const result = await runCli(['run', gql('vars-subst.http', query, { annotations: ['# @variables {"limit": {{limit}}}'] }), '-e', 'limit=2'], opts);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).users).toHaveLength(2);
    expect(lastReceived().params.variables).toEqual({ limit: 2 });
  });

  test('introspection: __schema and __type', async () => {
    const schema = await runCli(['run', gql('schema.http', '{ __schema { queryType { name } subscriptionType { name } } }')], opts);
    expect(JSON.parse(schema.stdout)).toEqual({ __schema: { queryType: { name: 'Query' }, subscriptionType: { name: 'Subscription' } } });
    const type = await runCli(['run', gql('type.http', '{ __type(name: "Role") { kind enumValues { name } } }')], opts);
    expect(JSON.parse(type.stdout)).toEqual({ __type: { kind: 'ENUM', enumValues: [{ name: 'ADMIN' }, { name: 'USER' }] } });
  });

  test('a Content-Type that is not JSON is replaced, with a warning', async () => {
    const result = await runCli(['run', gql('ctype.http', '{ hello }', { headers: ['Content-Type: application/graphql'] })], opts);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Content-Type "application/graphql" of request "request-1" is replaced by application/json');
    expect(lastReceived().headers['content-type']).toBe('application/json');
  });
});

describe('GraphQL mode: several operations', () => {
  const body = 'query Hello { hello }\n\nquery People($limit: Int) { users(limit: $limit) { name } }\n\nmutation Add { addUser(name: "X", email: "x@example.com") { id } }';

  test('# @operation picks one and sends it as operationName', async () => {
    const result = await runCli(['run', gql('ops-pick.http', body, { annotations: ['# @operation People', '# @variables {"limit": 1}'] })], opts);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ users: [{ name: 'Ada Lovelace' }] });
    expect(lastReceived().params).toMatchObject({ operationName: 'People', variables: { limit: 1 }, query: body });
  });

  test('without # @operation: exit 2 listing the names, nothing sent', async () => {
    const before = server.received.length;
    const result = await runCli(['run', gql('ops-none.http', body)], opts);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^reqflow: the GraphQL body of request "request-1" \(.*ops-none\.http:\d+\) has 3 operations \(Hello, People, Add\); pick one with # @operation NAME\nhint: /);
    expect(server.received.length).toBe(before);
  });

  test('# @operation naming no operation: exit 2 listing the names', async () => {
    const result = await runCli(['run', gql('ops-unknown.http', body, { annotations: ['# @operation Nope'] })], opts);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no GraphQL operation named "Nope"');
    expect(result.stderr).toContain('hint: operations in the body: Hello, People, Add');
  });

  test('a body with only fragments: exit 2', async () => {
    const result = await runCli(['run', gql('ops-fragments.http', 'fragment F on User { name }')], opts);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('has no operation, only fragments');
  });
});

describe('GraphQL mode: local checks before sending', () => {
  test('a syntax error is exit 2 with the line and column in the request file', async () => {
    // Line 1 comment, 2 protocol, 3 request line, 4 header, 5 blank, 6.. the query.
    const file = tmp.write('syntax.http', '# a query with a missing parenthesis\n# @protocol graphql\nPOST {{baseUrl}}/graphql\nX-Trace: 1\n\nquery {\n  user(id: "1" {\n    name\n  }\n}\n');
    const before = server.received.length;
    const result = await runCli(['run', file], opts);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`reqflow: ${file}:7:16: GraphQL syntax error: Expected Name, found "{".\nhint: the line reads: user(id: "1" {\n`);
    expect(server.received.length).toBe(before);
  });


  test('a syntax error below comment lines and blank lines in the body names its own line', async () => {
    // 1 protocol, 2 request line, 3 header, 4–5 blank, 6 comment, 7 query, 8 annotation (# @name), 9 user, 10 // comment, 11 name, 12 the bad bracket.
    const file = tmp.write('syntax-comments.http', '# @protocol graphql\nPOST {{baseUrl}}/graphql\nX-Trace: 1\n\n\n# the user query\nquery {\n# @name user-query\n  user(id: "1") {\n  // just the name\n    name\n  ]\n}\n');
    const before = server.received.length;
    const result = await runCli(['run', file], opts);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`reqflow: ${file}:12:3: GraphQL syntax error: Expected Name, found "]".\nhint: the line reads: ]\n`);
    expect(server.received.length).toBe(before);
  });
  test('a syntax error in a YAML request points into the YAML file', async () => {
    const file = tmp.write('syntax.yaml', ['name: broken', 'protocol: graphql', 'method: POST', 'url: "{{baseUrl}}/graphql"', 'body: |', '  query {', '    hello', '    users(limit: ) { name }', '  }', ''].join('\n'));
    const result = await runCli(['run', file], opts);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`reqflow: ${file}:8:18: GraphQL syntax error: Unexpected ")".`);
  });

  test('a declared non-null variable with no value is exit 3 naming it', async () => {
    const before = server.received.length;
    const result = await runCli(['run', gql('missing-var.http', 'query User($id: ID!, $withEmail: Boolean = false) { user(id: $id) { name email @include(if: $withEmail) } }')], opts);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^reqflow: GraphQL variable \$id \(ID!\) of request "request-1" has no value\nhint: set it with # @variables \{"id":"\.\.\."\}/);
    expect(server.received.length).toBe(before);
  });

  test('# @variables that is not JSON is exit 2', async () => {
    const result = await runCli(['run', gql('bad-vars.http', 'query Q($id: ID!) { user(id: $id) { name } }', { annotations: ["# @variables {id: '1'}"] })], opts);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('# @variables of request "request-1"');
    expect(result.stderr).toContain('is not valid JSON');
  });

  test('an empty body is exit 2', async () => {
    const file = tmp.write('empty.http', '# @protocol graphql\nPOST {{baseUrl}}/graphql\n');
    const result = await runCli(['run', file], opts);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('has no query');
  });

  test('a variable passed but not declared is sent, with a warning', async () => {
    const result = await runCli(['run', gql('extra-var.http', '{ hello }', { annotations: ['# @variables {"unused": 1}'] })], opts);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('GraphQL variable $unused of request "request-1" is not declared by the operation');
  });
});

describe('GraphQL mode: YAML and JSON requests', () => {
  test('protocol: graphql with a variables object ({{var}} substituted) and operation', async () => {
    const file = tmp.write(
      'user.yaml',
      ['name: user-by-id', 'protocol: graphql', 'url: "{{baseUrl}}/graphql"', 'operation: ById', 'variables:', '  id: "{{userId}}"', '  withEmail: true', 'body: |', '  query ById($id: ID!, $withEmail: Boolean!) {', '    user(id: $id) { name email @include(if: $withEmail) }', '  }', '  query Other { hello }', ''].join('\n'),
    );
    const result = await runCli(['run', file], opts);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('warning');
    expect(JSON.parse(result.stdout)).toEqual({ user: { name: 'Alan Turing', email: 'alan@example.com' } });
    expect(lastReceived().params).toMatchObject({ operationName: 'ById', variables: { id: '2', withEmail: true } });
  });

  test('a JSON request file', async () => {
    const file = tmp.write('hello.json', JSON.stringify({ protocol: 'graphql', method: 'POST', url: '{{baseUrl}}/graphql', body: 'query Hi($name: String) { hello(name: $name) }', variables: { name: 'JSON' } }));
    const result = await runCli(['run', file], opts);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ hello: 'Hello, JSON!' });
  });
});

describe('GraphQL mode: responses', () => {
  test('partial data: data and errors both shown, errors readable (message, line:column, path), exit 1', async () => {
    const query = '{\n  hello\n  user(id: "1") {\n    posts { title rating }\n  }\n}';
    const result = await runCli(['run', gql('partial.http', query)], opts);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ hello: 'Hello, world!', user: { posts: [{ title: 'Notes on the Engine', rating: null }, { title: 'Poetical Science', rating: null }] } });
    expect(result.stderr).toContain('data:\nerror: ratings are disabled\n  at 4:19\n  path: user.posts.0.rating\nerror: ratings are disabled\n  at 4:19\n  path: user.posts.1.rating\n');
  });

  test('a query that fails whole: data null and the errors, exit 1', async () => {
    const result = await runCli(['run', gql('whole.http', '{ broken }')], opts);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('null\n');
    expect(result.stderr).toContain('data:\nerror: broken always fails\n  at 1:3\n  path: broken\n');
  });

  test('only data: no errors shown, exit 0', async () => {
    const result = await runCli(['run', gql('only-data.http', '{ hello }')], opts);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('error');
    expect(result.stderr).not.toContain('data:');
  });

  test('an error with a path but no locations', async () => {
    const result = await runCli(['run', gql('no-locations.http', '{ user { posts { title } } }', { line: 'POST {{baseUrl}}/graphql-no-locations' })], opts);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: title resolver timed out\n  path: user.posts.0.title\n');
    expect(result.stderr).not.toContain('  at ');
  });

  test('a validation error (HTTP 400, errors without data) is formatted, exit 1', async () => {
    const result = await runCli(['run', gql('invalid.http', '{ nope }')], opts);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('400 Bad Request');
    expect(result.stderr).toContain('error: Cannot query field "nope" on type "Query".\n  at 1:3\n  code: GRAPHQL_VALIDATION_FAILED');
  });

  test('a 401 whose body is a GraphQL errors object is formatted as such', async () => {
    const result = await runCli(['run', gql('unauthorised.http', '{ secret }')], opts);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('401 Unauthorized');
    expect(result.stderr).toContain('error: not authorised: send Authorization: Bearer <token>\n  at 1:3\n  path: secret\n  code: UNAUTHENTICATED');
  });

  test('-o raw writes the body bytes unchanged; errors still make it exit 1', async () => {
    const result = await runCli(['run', gql('partial-raw.http', '{ hello flaky }'), '-o', 'raw'], opts);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ data: { hello: 'Hello, world!', flaky: null }, errors: [{ message: 'flaky is unavailable right now' }] });
  });

  test('--color colours the data like any JSON body', async () => {
    const result = await runCli(['run', gql('color.http', '{ hello }'), '--color'], opts);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('\u001b[');
    expect(result.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toBe('{\n  "hello": "Hello, world!"\n}\n');
  });

  test('-o json prints a response record whose body is the {data, errors} result', async () => {
    const result = await runCli(['run', gql('partial-json.http', '{ hello flaky }'), '-o', 'json'], opts);
    expect(result.code).toBe(1);
    const [record] = parseRecords(result.stdout);
    expect(record).toMatchObject({ type: 'response', name: 'request-1', method: 'POST', status: 200 });
    expect(record?.body).toEqual({ data: { hello: 'Hello, world!', flaky: null }, errors: [{ message: 'flaky is unavailable right now', locations: [{ line: 1, column: 9 }], path: ['flaky'] }] });
  });

  test('# @filter applies to the GraphQL response ({data, errors})', async () => {
    const file = gql('filter.http', '{ users { name role } }', { annotations: ["# @filter data.users[?role=='ADMIN'].name"] });
    const result = await runCli(['run', file], opts);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(['Ada Lovelace']);
    const raw = await runCli(['run', gql('filter-raw.http', '{ hello }'), '-o', 'raw', '--filter', 'data.hello'], opts);
    expect(raw.stdout).toBe('Hello, world!\n');
    const json = await runCli(['run', gql('filter-errors.http', '{ hello flaky }'), '-o', 'json', '--filter', 'errors[].message'], opts);
    expect(json.code).toBe(1);
    expect(parseRecords(json.stdout)[0]?.body).toEqual(['flaky is unavailable right now']);
    // -o raw with a filter: stdout is the filter's result, and the errors that make it exit 1 are said on stderr.
    const rawErrors = await runCli(['run', gql('filter-raw-errors.http', '{ hello flaky }'), '-o', 'raw', '--filter', 'data.hello'], opts);
    expect(rawErrors.code).toBe(1);
    expect(rawErrors.stdout).toBe('Hello, world!\n');
    expect(rawErrors.stderr).toMatch(/error: flaky is unavailable right now\n {2}at 1:9\n {2}path: flaky/);
  });

  test('a non-JSON error response is shown with its status and body, never a stack trace', async () => {
    const result = await runCli(['run', gql('html.http', '{ hello }', { line: 'POST {{baseUrl}}/not-graphql' })], opts);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('502 Bad Gateway');
    expect(result.stdout).toBe('<html><body>Bad Gateway</body></html>\n');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  test('a 200 that is not a GraphQL response is shown as it is, with a warning and exit 1', async () => {
    const result = await runCli(['run', gql('plain.http', '{ hello }', { line: 'POST {{baseUrl}}/plain-200' })], opts);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('hello, not GraphQL\n');
    expect(result.stderr).toContain('is not a GraphQL response');
  });

  test('a refused connection is exit 4', async () => {
    const result = await runCli(['run', gql('refused.http', '{ hello }', { line: 'POST http://127.0.0.1:1/graphql' })], opts);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('connection refused');
  });
});

describe('lazy imports', () => {
  test('a plain GET never loads graphql; a GraphQL query never loads graphql-ws or ws', async () => {
    // A module-resolution hook that reports the packages it sees resolved.
    const hooks = tmp.write('hooks.mjs', [
      'export async function resolve(specifier, context, next) {',
      '  const result = await next(specifier, context);',
      '  const match = /node_modules\\/(graphql-ws|graphql|ws)\\//.exec(result.url);',
      "  if (match) process.stderr.write(`LOADED ${match[1]}\\n`);",
      '  return result;',
      '}',
    ].join('\n'));
    const register = tmp.write('register.mjs', `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`);
    const withHooks = { ...opts, env: { ...env, NODE_OPTIONS: `--import file://${register}` } };
    const plain = await runCli(['run', tmp.write('plain-get.http', 'GET {{baseUrl}}/graphql?query=%7Bhello%7D\n')], withHooks);
    expect(plain.code).toBe(0);
    expect(plain.stderr).not.toContain('LOADED');
    const query = await runCli(['run', gql('lazy-query.http', '{ hello }')], withHooks);
    expect(query.code).toBe(0);
    expect(query.stderr).toContain('LOADED graphql\n');
    expect(query.stderr).not.toMatch(/LOADED (graphql-ws|ws)\b/);
  });
});
