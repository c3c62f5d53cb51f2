/**
 * Chaining end to end with the built CLI against the demo API: login → create → fetch → delete
 * written in each of the three chaining forms (VS Code references, # @capture, JetBrains
 * handlers with client.global), # @ref and on-demand runs, cycles, XPath, restcli YAML, and
 * every ?? operator passing and failing.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { startDemoApi, type DemoApi } from './servers/demo-api.js';
import { runCli, tempDir } from './helpers/cli.js';
import { parseRecords } from './helpers/records.js';

let api: DemoApi;
const tmp = tempDir('reqflow-chain-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
const run = (file: string, ...args: string[]) => runCli(['run', join(tmp.dir, file), '-e', `baseUrl=${api.url}`, ...args], { cwd: tmp.dir, env });

beforeAll(async () => {
  api = await startDemoApi();
});
afterAll(async () => {
  await api.close();
  tmp.cleanup();
});

const LOGIN = `# @name login
POST {{baseUrl}}/login
Content-Type: application/json

{"username": "alice", "password": "secret"}
`;

/** The records of a `-o json` run, by type. */
function records(stdout: string) {
  const all = parseRecords(stdout) as Array<Record<string, unknown>>;
  return { responses: all.filter((r) => r.type === 'response'), tests: all.filter((r) => r.type === 'test').map((r) => r.test as Record<string, unknown>) };
}

describe('the three chaining forms', () => {
  test('VS Code references: {{login.response.body.$.token}}, {{create.response.body.$.id}}, {{create.response.headers.Location}}', async () => {
    tmp.write('vscode.http', `${LOGIN}
###
# @name create
POST {{baseUrl}}/notes
Authorization: Bearer {{login.response.body.$.token}}
Content-Type: application/json

{"text": "from vscode"}

###
# @name fetch
GET {{baseUrl}}/notes/{{create.response.body.$.id}}
Authorization: Bearer {{login.response.body.$.token}}

###
# @name delete
DELETE {{baseUrl}}{{create.response.headers.Location}}
Authorization: Bearer {{login.response.body.$.token}}
`);
    const result = await run('vscode.http', '-o', 'json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const { responses } = records(result.stdout);
    expect(responses.map((r) => r.status)).toEqual([200, 201, 200, 204]);
    const created = (responses[1]?.body as { id: number }).id;
    expect(responses[2]?.body).toEqual({ id: created, text: 'from vscode' });
    expect(responses[3]?.url).toBe(`${api.url}/notes/${created}`);
  });

  test('# @capture with JSONPath and header:, values secret by name are masked in -v', async () => {
    tmp.write('capture.http', `# @name login
# @capture authToken = $.token
POST {{baseUrl}}/login
Content-Type: application/json

{"username": "alice", "password": "secret"}

###
# @name create
# @capture noteUrl = header:Location
# @capture noteId = $.id
POST {{baseUrl}}/notes
Authorization: Bearer {{authToken}}
Content-Type: application/json

{"text": "captured"}

###
GET {{baseUrl}}{{noteUrl}}?id={{noteId}}
Authorization: Bearer {{authToken}}
`);
    const result = await run('capture.http', '-v');
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).toContain('"text": "captured"');
    const token = /"token": "(tok_[0-9a-f]+)"/.exec(result.stdout)?.[1] as string;
    expect(token).toBeDefined();
    // The token is in the body it came in (the user asked for it), never in the request lines of -v.
    expect(result.stderr).not.toContain(token);
    expect(result.stderr).toContain('Authorization: •••');
  });

  test('JetBrains handlers: client.global.set read by later requests as {{name}}, client.test results', async () => {
    tmp.write('jetbrains.http', `${LOGIN}
> {%
  client.global.set("auth", response.body.token);
  client.test("login gives a token", function () {
    client.assert(response.status === 200, "status is " + response.status);
    client.assert(response.contentType.mimeType === "application/json", "json");
  });
%}

###
POST {{baseUrl}}/notes
Authorization: Bearer {{auth}}
Content-Type: application/json

{"text": "handled"}

> {%
  client.global.set("noteId", response.body.id);
  client.test("created", function () { client.assert(response.status === 201, "expected 201, got " + response.status); });
  client.test("deliberately failing", function () { client.assert(response.body.text === "other", "text was " + response.body.text); });
%}

###
GET {{baseUrl}}/notes/{{noteId}}
Authorization: Bearer {{auth}}
`);
    const result = await run('jetbrains.http', '-o', 'json');
    const { responses, tests } = records(result.stdout);
    expect(responses.map((r) => r.status)).toEqual([200, 201, 200]);
    expect(tests).toEqual([
      expect.objectContaining({ name: 'login gives a token', passed: true }),
      expect.objectContaining({ name: 'created', passed: true }),
      expect.objectContaining({ name: 'deliberately failing', passed: false, message: 'text was handled' }),
    ]);
    expect(result.code).toBe(1); // a failed check
  });
});

describe('dependencies', () => {
  test('-n picks one request: the requests it refers to run first, once each', async () => {
    tmp.write('ondemand.http', `${LOGIN}
###
# @name create
POST {{baseUrl}}/notes
Authorization: Bearer {{login.response.body.$.token}}
Content-Type: application/json

{"text": "x"}

###
# @name show
GET {{baseUrl}}/notes/{{create.response.body.$.id}}
Authorization: Bearer {{login.response.body.$.token}}
`);
    const result = await run('ondemand.http', '-n', 'show', '-o', 'json');
    expect(result.code).toBe(0);
    expect(records(result.stdout).responses.map((r) => r.name)).toEqual(['login', 'create', 'show']);
  });

  test('# @ref runs a request first unless it ran; # @forceRef runs it again', async () => {
    tmp.write('refs.http', `# @name ping
GET {{baseUrl}}/echo?n=1

###
# @name a
# @ref ping
GET {{baseUrl}}/echo?n=2

###
# @name b
# @forceRef ping
GET {{baseUrl}}/echo?n=3
`);
    const picked = await run('refs.http', '-n', 'a', '-o', 'json');
    expect(records(picked.stdout).responses.map((r) => r.name)).toEqual(['ping', 'a']);
    const all = await run('refs.http', '-o', 'json');
    expect(records(all.stdout).responses.map((r) => r.name)).toEqual(['ping', 'a', 'ping', 'b']);
  });

  test('a dependency cycle is exit 2 naming it; an unknown # @ref is exit 2 listing the requests', async () => {
    tmp.write('cycle.http', `# @name a
# @ref b
GET {{baseUrl}}/echo?a

###
# @name b
GET {{baseUrl}}/echo?b={{a.response.status}}
`);
    const cycle = await run('cycle.http', '-n', 'a');
    expect(cycle.code).toBe(2);
    expect(cycle.stderr).toContain('request cycle: a → b → a');
    tmp.write('unknown-ref.http', '# @ref nobody\nGET {{baseUrl}}/echo\n');
    const unknown = await run('unknown-ref.http');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown-ref\.http:1: # @ref nobody: no request is named "nobody"/);
  });

  test('# @depends runs another file first; XPath reads an XML response', async () => {
    tmp.write('deps/login.http', LOGIN);
    tmp.write('deps/xml.http', `# @depends ./login.http
# @name users
GET {{baseUrl}}/users.xml

###
GET {{baseUrl}}/echo?second={{users.response.body.//user[2]/name}}&token={{login.response.body.$.token}}
`);
    const result = await run('deps/xml.http', '-o', 'json');
    expect(result.code).toBe(0);
    const { responses } = records(result.stdout);
    expect(responses.map((r) => r.name)).toEqual(['login', 'users', 'request-2']);
    expect((responses[2]?.body as { query: Record<string, string> }).query.second).toBe('Alan Turing');
    expect((responses[2]?.body as { query: Record<string, string> }).query.token).toMatch(/^tok_/);
  });

  test('a reference to a field that is not there is exit 3 naming it; the request is not sent', async () => {
    tmp.write('missing.http', `${LOGIN}
###
GET {{baseUrl}}/echo?x={{login.response.body.$.nothing}}
`);
    const result = await run('missing.http', '-o', 'json');
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('{{login.response.body.$.nothing}}: $.nothing matches nothing');
    expect(records(result.stdout).responses).toHaveLength(1);
  });
});

describe('?? assertions', () => {
  const CASES: Array<[string, boolean]> = [
    ['status == 200', true],
    ['status == 201', false],
    ['status != 404', true],
    ['status >= 200', true],
    ['status > 200', false],
    ['status <= 200', true],
    ['status < 200', false],
    ['status startsWith 2', true],
    ['status endsWith 1', false],
    ['header content-type includes json', true],
    ['header content-type contains xml', false],
    ['header x-missing exists', false],
    ['header content-type exists', true],
    ['header x-missing isFalse', true],
    ['body $.total == 3', true],
    ['body $.total == 4', false],
    ['body total isNumber', true],
    ['body users isArray', true],
    ['body $.users[0].name isString', true],
    ['body $.users[0].roles includes admin', true],
    ['body $.users[1].name matches ^Alan', true],
    ['body $.users[1].name matches ^Ada', false],
    ['body $.users[0].id isBoolean', false],
    ['duration < 10000', true],
    ['js response.parsedBody.users.length == 3', true],
    ['js response.body.users.length > 5', false],
  ];

  test('every operator, passing and failing, with expected against actual', async () => {
    const lines = CASES.map(([assertion]) => `?? ${assertion}`).join('\n');
    tmp.write('asserts.http', `GET {{baseUrl}}/users\n\n${lines}\n`);
    const result = await run('asserts.http', '-o', 'json');
    const { tests } = records(result.stdout);
    expect(tests.map((t) => [t.name, t.passed])).toEqual(CASES);
    expect(tests.find((t) => t.name === 'body $.total == 4')?.message).toBe('expected body $.total == 4, got 3');
    expect(tests.find((t) => t.name === 'status == 201')?.line).toBe(4);
    expect(result.code).toBe(1);
  });

  test('a 404 that the checks expect passes (exit 0): checks decide, not the status', async () => {
    tmp.write('expect-404.http', 'GET {{baseUrl}}/users/99\n\n?? status == 404\n?? body error == no user 99\n');
    const result = await run('expect-404.http');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('✓ status == 404');
  });

  test('with -o raw, stdout is the body and each failed check is a line on stderr (exit 1)', async () => {
    tmp.write('raw-checks.http', 'GET {{baseUrl}}/health\n\n?? status == 200\n?? status == 201\n?? body status == down\n');
    const result = await run('raw-checks.http', '-o', 'raw');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('{"status":"ok"}');
    expect(result.stderr).toBe('✗ status == 201 — expected status == 201, got 200\n✗ body status == down — expected body status == \"down\", got \"ok\"\n');
  });

  test('a ?? line right after the request line is a check, not a query continuation', async () => {
    tmp.write('after-line.http', 'GET {{baseUrl}}/health\n?? status == 200\n?? body status == ok\n');
    const result = await run('after-line.http', '-o', 'json');
    expect(records(result.stdout).tests.map((t) => [t.name, t.passed])).toEqual([['status == 200', true], ['body status == ok', true]]);
    expect(records(result.stdout).responses[0]?.url).toMatch(/\/health$/);
  });

  test('a ?? line right after the headers (no body) is a check, not a header', async () => {
    tmp.write('no-blank.http', 'GET {{baseUrl}}/health\nAccept: application/json\n?? status == 200\n');
    const result = await run('no-blank.http', '-o', 'json');
    expect(records(result.stdout).tests).toEqual([expect.objectContaining({ name: 'status == 200', passed: true })]);
  });
});

describe('restcli', () => {
  test('YAML extract (JMESPath), expectedStatusCodes, expectedBodyFields, dependsOn', async () => {
    tmp.write('restcli/login.yaml', `name: login
method: POST
url: "{{baseUrl}}/login"
headers:
  Content-Type: application/json
body: {username: alice, password: secret}
extract:
  rtoken: token
expectedStatusCodes: [200]
`);
    tmp.write('restcli/note.yaml', `name: note
method: POST
url: "{{baseUrl}}/notes"
dependsOn: login.yaml
headers:
  Authorization: "Bearer {{rtoken}}"
  Content-Type: application/json
body: {text: yaml}
expectedStatusCodes: ["2xx"]
expectedBodyFields:
  text: yaml
  $.id: 999
`);
    const result = await run('restcli/note.yaml', '-o', 'json');
    const { tests, responses } = records(result.stdout);
    expect(responses.map((r) => r.name)).toEqual(['login', 'note']);
    expect(tests.map((t) => [t.name, t.passed])).toEqual([
      ['expectedStatusCodes 200', true],
      ['expectedStatusCodes 2xx', true],
      ['expectedBodyField text', true],
      ['expectedBodyField $.id', false],
    ]);
    expect(result.code).toBe(1);
  });
});
