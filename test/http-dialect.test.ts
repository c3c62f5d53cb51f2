/**
 * Request files written for JetBrains HTTP Client, VS Code REST Client and httpyac
 * (test/fixtures/dialect/) run unchanged; a recording server checks method, URL, headers and
 * body byte for byte.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ROOT, runCli, tempDir } from './helpers/cli.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const FIXTURES = join(ROOT, 'test', 'fixtures', 'dialect');
const received: Received[] = [];
let server: Server;
let port = 0;
const tmp = tempDir('reqflow-dialect-');

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      if (req.url === '/redirect') return void res.writeHead(302, { Location: '/target' }).end();
      if (req.url === '/slow') {
        // Cleared when the client gives up: a timer left behind would keep the jest worker alive.
        const timer = setTimeout(() => res.writeHead(200).end('late'), 1500);
        return void res.on('close', () => clearTimeout(timer));
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data":{"ok":true}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

async function run(file: string, extra: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string; requests: Received[] }> {
  const before = received.length;
  const result = await runCli(['run', join(FIXTURES, file), '-e', `host=http://127.0.0.1:${port}`, '-e', `hostPort=127.0.0.1:${port}`, '-e', 'user=ada', ...extra], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
  return { code: result.code, stdout: result.stdout, stderr: result.stderr, requests: received.slice(before) };
}

function byName(requests: Received[], path: string): Received {
  const found = requests.find((r) => r.url.split('?')[0] === path);
  if (!found) throw new Error(`no request to ${path}; got ${requests.map((r) => r.url).join(', ')}`);
  return found;
}

describe('JetBrains HTTP Client files', () => {
  test('banners and empty ### blocks are skipped; every request is sent as written', async () => {
    const { code, stderr, requests } = await run('jetbrains/requests.http');
    expect(stderr.replace(/^HTTP\/1\.1 .*\n/gm, '')).toBe('');
    expect(code).toBe(0);
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/users?page=1&limit=10', 'POST /api/users', 'POST /upload', 'POST /graphql', 'POST /graphql-vars']);
  });

  test('< ./file sends the file bytes; a <> response reference is not body', async () => {
    const { requests } = await run('jetbrains/requests.http', ['-n', 'createUser']);
    expect(requests[0]?.body.equals(readFileSync(join(FIXTURES, 'jetbrains', 'user.json')))).toBe(true);
  });

  test('multipart: CRLF line ends, the boundary from the header, the included file byte for byte', async () => {
    const { requests } = await run('jetbrains/requests.http', ['-n', 'upload']);
    const blob = readFileSync(join(FIXTURES, 'jetbrains', 'blob.bin'));
    const expected = Buffer.concat([
      Buffer.from('--WebAppBoundary\r\nContent-Disposition: form-data; name="field-name"\r\n\r\nfield-value\r\n--WebAppBoundary\r\nContent-Disposition: form-data; name="data"; filename="blob.bin"\r\nContent-Type: application/octet-stream\r\n\r\n'),
      blob,
      Buffer.from('\r\n--WebAppBoundary--'),
    ]);
    const upload = requests[0] as Received;
    expect(upload.body.equals(expected)).toBe(true);
    expect(upload.headers['content-type']).toBe('multipart/form-data; boundary=WebAppBoundary');
    expect(upload.headers['content-length']).toBe(String(expected.length));
  });

  test('the GRAPHQL method goes through the GraphQL plugin: POST {"query"}', async () => {
    const { code, requests } = await run('jetbrains/requests.http', ['-n', 'gql']);
    expect(code).toBe(0);
    expect(requests[0]?.method).toBe('POST');
    expect(JSON.parse(requests[0]?.body.toString() ?? '')).toEqual({ query: '{ hello }' });
  });
});

describe('JetBrains GraphQL variables', () => {
  test('GRAPHQL with a JSON object after the query: the variables, resolved', async () => {
    const { code, requests } = await run('jetbrains/requests.http', ['-n', 'gqlVariables']);
    expect(code).toBe(0);
    expect(JSON.parse(requests[0]?.body.toString() ?? '')).toEqual({ query: 'query User($id: ID!) {\n  user(id: $id) { name }\n}', variables: { id: 'ada' } });
  });
});

describe('VS Code REST Client files', () => {
  test('file variables (referencing others), literal bodies, form bodies on & lines, pasted responses ignored', async () => {
    const { code, requests } = await run('vscode/api.rest');
    expect(code).toBe(0);
    const create = byName(requests, '/api/users');
    expect(create.headers['content-type']).toBe('application/json');
    expect(create.headers['x-created-by']).toBe('ada-bot');
    expect(create.body.toString()).toBe('{\n  "name": "ada",\n  "note": "# not a comment: bodies are literal"\n}');
    expect(byName(requests, '/api/login').body.toString()).toBe('name=foo&password=bar');
    const search = byName(requests, '/api/search');
    expect(search.url).toBe('/api/search?q=hello%20world');
    expect(search.method).toBe('GET');
    expect(search.body.length).toBe(0); // the pasted response is not sent
    expect(search.headers.accept).toBe('application/json, text/plain');
    // A later definition wins for the requests below it.
    expect(byName(requests, '/api/notes').headers['content-type']).toBe('text/plain');
    // X-Request-Type: GraphQL is a marker: the query and its variables go out as GraphQL JSON.
    const graphql = byName(requests, '/api/graphql');
    expect(graphql.headers['x-request-type']).toBeUndefined();
    expect(JSON.parse(graphql.body.toString())).toEqual({ query: 'query User($id: ID!) {\n  user(id: $id) { name }\n}', variables: { id: 'ada' } });
  });

  test('-e still wins over a file variable', async () => {
    const { requests } = await run('vscode/api.rest', ['-n', 'createUser', '-e', 'contentType=application/vnd.api+json']);
    expect(requests[0]?.headers['content-type']).toBe('application/vnd.api+json');
  });
});

describe('VS Code: {{$dotenv %name}}', () => {
  test('the name comes from the selected environment, else it is the name itself: @X = {{$dotenv %X}} reads X from .env (no cycle)', async () => {
    tmp.write('dotenv-ref/package.json', '{}');
    tmp.write('dotenv-ref/.env', `ORY_URL=http://127.0.0.1:${port}\nORY_URL_DEV=http://127.0.0.1:${port}/dev\n`);
    tmp.write('dotenv-ref/.vscode/settings.json', '{ "rest-client.environmentVariables": { "dev": { "ORY_URL": "ORY_URL_DEV" }, "local": {} } }');
    const file = tmp.write('dotenv-ref/api.http', '@ORY_URL = {{$dotenv %ORY_URL}}\n\nGET {{ORY_URL}}/sessions/whoami\n');
    const runIt = async (envName: string) => {
      const before = received.length;
      const result = await runCli(['run', file, '--env', envName], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
      return { code: result.code, refused: result.stderr.includes('reqflow:'), urls: received.slice(before).map((r) => r.url) };
    };
    // VS Code's resolveSettingsEnvironmentVariable (systemVariableProvider.ts): the environment's value names the key.
    expect(await runIt('local')).toEqual({ code: 0, refused: false, urls: ['/sessions/whoami'] });
    expect(await runIt('dev')).toEqual({ code: 0, refused: false, urls: ['/dev/sessions/whoami'] });
  });
});

describe('VS Code chaining through file variables', () => {
  test('a file variable is resolved only where used: an unused reference runs nothing and is no cycle; variables below a body and trailing comments are not body', async () => {
    const { code, stderr, requests } = await run('vscode/chain.rest');
    expect(stderr.replace(/^HTTP\/1\.1 .*\n/gm, '')).toBe('');
    expect(code).toBe(0);
    // In file order, each once: nothing ran early for a variable no request of its own uses.
    expect(requests.map((r) => `${r.method} ${r.url} ${r.body.toString()}`)).toEqual(['POST /login {"user": "ada"}', 'POST /login {"user": "admin"}', 'GET /me ']);
    expect(requests[2]?.headers.authorization).toBe('Bearer true');
    expect(requests[2]?.headers['x-after']).toBe('set-after-the-body');
  });

  test('-n picks one request: it runs alone, and a request it uses runs first, once', async () => {
    const alone = await run('vscode/chain.rest', ['-n', 'loginAdmin']);
    expect(alone.code).toBe(0);
    expect(alone.requests.map((r) => r.body.toString())).toEqual(['{"user": "admin"}']);
  });
});

describe('httpyac files', () => {
  test('origin-form targets with Host, URLs without a scheme, <@ and <@latin1 bodies', async () => {
    const { code, requests } = await run('httpyac/calls.http');
    expect(code).toBe(0);
    expect(byName(requests, '/hello').url).toBe('/hello?say=hello');
    expect(byName(requests, '/hello').headers.host).toBe(`127.0.0.1:${port}`);
    expect(byName(requests, '/bare').url).toBe('/bare?x=1');
    expect(byName(requests, '/template').body.toString()).toBe('name=ada\n');
    expect(byName(requests, '/latin1').body.toString('utf8')).toBe('café ada\n');
    expect(JSON.parse(byName(requests, '/graphql').body.toString())).toEqual({ query: 'query Hello {\n  hello\n}' });
  });
});

describe('httpyac: global blocks wherever they stand', () => {
  test('a global {{ }} block below a request runs before it too, after the ones above (recorded from httpyac 6.16.7)', async () => {
    const result = await run('httpyac/global-script-below.http');
    expect(result.stderr).not.toContain('reqflow:');
    expect(result.code).toBe(0);
    expect(result.requests.map((r) => r.url)).toEqual(['/global/x?stage=second&late=yes', '/global/y?stage=second&late=yes']);
  });
});

describe('httpyac: # @ref to a named block of variables', () => {
  test('the block above defines them: the request runs with them (recorded from httpyac 6.16.7: GET /settings/ok?from=ref)', async () => {
    const result = await run('httpyac/ref-settings.http');
    expect(result.stderr).not.toContain('reqflow:');
    expect(result.code).toBe(0);
    expect(result.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /settings/ok?from=ref']);
  });

  test('a block of variables below the request: still exit 2 naming the # @ref line, nothing sent', async () => {
    const file = tmp.write('ref-below.http', `# @ref settings\nGET {{base}}/never\n\n###\n# @name settings\n@base = {{host}}\n`);
    const before = received.length;
    const result = await runCli(['run', file, '-e', `host=http://127.0.0.1:${port}`], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('ref-below.http:1: # @ref settings: no request is named "settings"');
    expect(received.length).toBe(before);
  });
});

describe('httpyac projects', () => {
  test('/* */ comments (### inside them is Markdown), # @import of another file\'s requests and variables, @ref, {{name.path}} of a response, the host variable before /paths, requests without ### and bodies without a blank line', async () => {
    const { code, stderr, requests } = await run('httpyac-project/todos.http');
    expect(stderr.replace(/^HTTP\/1\.1 .*\n/gm, '')).toBe('');
    expect(code).toBe(0);
    expect(requests.map((r) => `${r.method} ${r.url} ${r.body.toString()}`)).toEqual(['POST /auth {"user": "ada"}', 'GET /todos ', 'GET /todos/done ', 'POST /todos {"title": "write tests"}', 'DELETE /todos/1 ']);
    expect(requests[0]?.headers['content-type']).toBe('application/json');
    expect(requests[1]?.headers['x-api-key']).toBe('key-ada');
    expect(requests[1]?.headers['x-token']).toBe('true');
  });

  test("# @import and # @ref in a block of its own at the file's top are every request's below it, as httpyac runs a global block's import before each request (it was dropped: no request is named …)", async () => {
    const { code, stderr, requests } = await run('httpyac-project/global-import.http');
    expect(stderr.replace(/^HTTP\/1\.1 .*\n/gm, '')).toBe('');
    expect(code).toBe(0);
    // As httpyac 6.16.7 sent the same form (checked by hand): the referred-to request once, then both.
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /auth', 'GET /todos?token=true', 'GET /todos/done?token=true']);
    expect(requests[1]?.headers['x-api-key']).toBe('key-ada');
    // A # @ref there too: the referred-to request runs once, before the first request below (httpyac 6.16.7, by hand).
    const ref = await run('httpyac-project/global-ref.http');
    expect(ref.code).toBe(0);
    expect(ref.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /auth', 'GET /todos', 'GET /todos/done']);
  });

  test('# @import of a file with no request (its @variables and {{ }} helpers only): its variables and its global scripts\' exports are the importing requests\' — it was exit 2, "no requests found"', async () => {
    const { code, stderr, requests } = await run('httpyac-project/import-setup.http');
    expect(stderr.replace(/^HTTP\/1\.1 .*\n/gm, '')).toBe('');
    expect(code).toBe(0);
    // What httpyac 6.16.7 sent for the same files against the same kind of recorder (by hand).
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/orders?stage=setup&seeded=10-20', 'GET /v1/tenants/acme?stage=setup']);
    expect(requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from('sandy:squirr3l').toString('base64')}`);
    const listed = await runCli(['run', join(FIXTURES, 'httpyac-project/import-setup.http'), '--list'], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(listed.code).toBe(0);
    // Run by itself, such a file is still no request to send.
    const alone = await run('httpyac-project/common/setup.http');
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('setup.http: no requests found');
  });

  test('environments of .httpyac.json: $shared and the one --env names; $default without --env', async () => {
    const { code, requests } = await run('httpyac-project/env.http', ['--env', 'local']);
    expect(code).toBe(0);
    expect(requests[0]?.url).toBe('/env?tenant=acme&region=eu-1');
    const none = await run('httpyac-project/env.http');
    expect(none.code).toBe(0);
    expect(none.requests[0]?.url).toBe('/env?tenant=acme&region=no-env-picked');
    const unknown = await run('httpyac-project/env.http', ['--env', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('local (test/fixtures/dialect/httpyac-project/.httpyac.json)');
    expect(unknown.requests).toEqual([]);
  });

  test('a /path with neither a Host header nor a host variable: exit 3 naming host, nothing sent', async () => {
    const file = tmp.write('nohost.http', 'GET /x\n');
    const result = await runCli(['run', file], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^reqflow: unknown variable "host".*\nhint: .*Host: header/);
  });

  test('httpyac JavaScript blocks: exports and $global become variables, response.parsedBody and the variables are in reach, console.log and test() report; a block without a request runs before each request below', async () => {
    const { code, stderr, requests } = await run('httpyac-project/scripts.http', ['-o', 'json']);
    expect(code).toBe(0);
    expect(stderr).toContain('reqflow: log: logged in 200 application/json');
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /login', 'GET /me?token=true&started=yes&double=adaada']);
    expect(requests[1]?.headers['x-seen']).toBe('[200]');
  });

  test("httpyac's $global keeps a number or a boolean as such between scripts (a counter counts 1, 2, not 1, 11), and sends its text", async () => {
    const before = received.length;
    const url = `http://127.0.0.1:${port}/count`;
    const text = ['{{', '  $global.n = ($global.n || 0) + 1;', '  $global.flag = true;', '}}', `GET ${url}?n={{$global.n}}`, '', '###', '', '{{', '  $global.n = ($global.n || 0) + 1;', "  exports.strict = $global.flag === true ? 'yes' : 'no';", '}}', `GET ${url}?n={{$global.n}}&strict={{strict}}`, '', '###', '', '{{', '  $global.n = String($global.n) + "0";', '}}', `GET ${url}?n={{$global.n}}`, ''].join('\n');
    const file = tmp.write('global-counter.http', text);
    const result = await runCli(['run', file], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(result.code).toBe(0);
    // As httpyac 6.16.7 sends them (it counted 1, 11, 110 before); the third script makes it text.
    expect(received.slice(before).map((r) => r.url)).toEqual(['/count?n=1', '/count?n=2&strict=yes', '/count?n=20']);
  });

  test('an httpyac script that needs require() fails naming its line, and its request is not sent; hooks reqflow cannot run are refused', async () => {
    const before = received.length;
    const file = tmp.write('script.http', `{{\n  const fs = require('fs');\n  exports.token = fs.readFileSync('/etc/passwd', 'utf8');\n}}\nGET http://127.0.0.1:${port}/a?t={{token}}\n`);
    const result = await runCli(['run', file], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^reqflow: pre-request script failed: \S*script\.http:2 \(script line 1\): Error: require\("fs"\) runs a program; `reqflow trust` this project or pass --trust$/m);
    const hook = tmp.write('hook.http', `GET http://127.0.0.1:${port}/a\n\n{{@streaming\n  request.headers.x = 1;\n}}\n`);
    const refused = await runCli(['run', hook], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("hook.http:3:1: httpyac's {{@streaming script hook is not supported");
    expect(received.length).toBe(before);
  });
});

describe('what cannot be done is refused, never sent wrong', () => {
  test('--list shows the resolved targets of every file without sending', async () => {
    const before = received.length;
    const result = await runCli(['run', join(FIXTURES, 'vscode', 'api.rest'), '--list']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').filter(Boolean).map((line) => line.split('\t').slice(0, 2).join(' '))).toEqual(['createUser POST', 'login POST', 'search GET', 'later POST', 'vscodeGraphql POST']);
    expect(received.length).toBe(before);
  });

  test('a pre-request script that fails stops its request: exit 2 naming the line, and nothing is sent', async () => {
    const file = tmp.write('pre-failing.http', `< {%\n  request.variables.set("a", 1);\n  undefinedFunction();\n%}\nGET http://127.0.0.1:${port}/x?a={{a}}\n`);
    const before = received.length;
    const result = await runCli(['run', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/pre-request script failed: \S*pre-failing\.http:3 \(script line 3\): ReferenceError: undefinedFunction is not defined/);
    expect(received.length).toBe(before);
  });

  test('a pre-request script sets the variables of its request', async () => {
    const file = tmp.write('pre.http', `< {%\n  request.variables.set("who", "from-script");\n%}\nGET http://127.0.0.1:${port}/x?who={{who}}\n`);
    const before = received.length;
    const result = await runCli(['run', file]);
    expect(result.code).toBe(0);
    expect(received.slice(before).map((r) => r.url)).toEqual(['/x?who=from-script']);
  });
});

describe('annotations of the .http tools', () => {
  const send = async (text: string, args: string[] = []) => {
    const file = tmp.write(`annotated-${received.length}.http`, text.replaceAll('HOST', `http://127.0.0.1:${port}`));
    const before = received.length;
    const result = await runCli(['run', file, ...args], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    return { ...result, requests: received.slice(before) };
  };

  test('# @no-redirect wins over -L', async () => {
    const followed = await send('GET HOST/redirect\n', ['-L']);
    expect(followed.requests.map((r) => r.url)).toEqual(['/redirect', '/target']);
    const stopped = await send('# @no-redirect\nGET HOST/redirect\n', ['-L']);
    expect(stopped.requests.map((r) => r.url)).toEqual(['/redirect']);
    expect(stopped.stderr).toContain('302');
  });

  test('# @timeout bounds the request (a bare number is seconds; ms and m name the unit)', async () => {
    const result = await send('# @timeout 300 ms\nGET HOST/slow\n');
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/slow timed out after 300 ms/);
    expect((await send('# @timeout 1 m\nGET HOST/slow\n')).code).toBe(0);
  });

  test('a bad or too large # @timeout is exit 2 naming the annotation, and nothing is sent', async () => {
    const bad = await send('### t\n# @timeout soon\nGET HOST/x\n');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^reqflow: # @timeout of request "t" \(.*:2\) expects a duration such as 30, 500 ms or 2 m, got "soon"$/m);
    const huge = await send('### t\n# @connection-timeout 100000000\nGET HOST/x\n');
    expect(huge.code).toBe(2);
    expect(huge.stderr).toMatch(/# @connection-timeout of request "t" .* at most 2147483647 ms/);
    expect([...bad.requests, ...huge.requests]).toEqual([]);
  });

  test('# @note without a terminal: not sent, exit 2, the note shown', async () => {
    const result = await send('### drop\n# @note drops the production database\nDELETE HOST/db\n');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/request "drop" .* asks for confirmation before it is sent: drops the production database; not sent/);
    expect(result.requests).toEqual([]);
  });

  test('# @prompt without a terminal is exit 3 with a hint; -e answers it', async () => {
    const text = '# @prompt otp one-time password\nGET HOST/otp?code={{otp}}\n';
    const asked = await send(text);
    expect(asked.code).toBe(3);
    expect(asked.stderr).toContain('-e otp=');
    const given = await send(text, ['-e', 'otp=123456']);
    expect(given.requests[0]?.url).toBe('/otp?code=123456');
  });

  test("kulala's # @secret is a # @prompt whose answer is hidden: without a terminal exit 3 naming it, -e answers it (it was an unknown annotation, ignored with a warning, and the variable unknown)", async () => {
    const text = '### register\n# @prompt username\n# @secret password your password\nPOST HOST/register\nContent-Type: application/json\n\n{"username": "{{username}}", "password": "{{password}}"}\n';
    const asked = await send(text, ['-e', 'username=ada']);
    expect(asked.code).toBe(3);
    expect(asked.stderr).not.toContain('unknown annotation');
    expect(asked.stderr).toContain('variable "password" is interactive but stdin is not a terminal');
    expect(asked.requests).toEqual([]);
    const given = await send(text, ['-e', 'username=ada', '-e', 'password=s3cret']);
    expect(given.code).toBe(0);
    expect(given.requests[0]?.body.toString()).toBe('{"username": "ada", "password": "s3cret"}');
  });

  test('an annotation no plugin knows: one warning naming it, its own line and the closest known name; the request still runs', async () => {
    const result = await send('### a\n# @filer status\nGET HOST/a\n\n### b\n# @filer status\nGET HOST/b\n');
    expect(result.code).toBe(0);
    expect(result.stderr.match(/unknown annotation/g)).toHaveLength(1);
    expect(result.stderr).toMatch(/reqflow: warning: unknown annotation "@filer" in request "a" \(.*:2\) is ignored; did you mean "@filter"\?/);
  });
});

describe('restcli files', () => {
  const restcli = (file: string, extra: string[] = []) => run(`restcli/${file}`, extra);

  test('documentation and $schema are accepted, parseEscapes applies, filter then query shape the output, multi-value profile variables pick the active option', async () => {
    const before = received.length;
    const result = await runCli(['run', join(FIXTURES, 'restcli', 'create-user.yaml'), '-o', 'raw', '-e', `host=http://127.0.0.1:${port}`], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect([result.code, result.stdout, result.stderr]).toEqual([0, 'true\n', '']);
    const sent = received.slice(before);
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /users']);
    expect(sent[0]?.body.toString()).toBe('line one\nline two\ttabbed é');
  });

  test('requiresConfirmation: not sent without a terminal', async () => {
    const { code, stderr, requests } = await restcli('delete-user.json');
    expect(code).toBe(2);
    expect(stderr).toMatch(/request "Delete User" .* asks for confirmation before it is sent; not sent/);
    expect(requests).toEqual([]);
  });

  test("restcli's expectations are checked: a status it does not expect fails the run (exit 1)", async () => {
    const file = tmp.write('expect.yaml', `name: x\nurl: http://127.0.0.1:${port}/x\nexpectedStatusCodes: [201, "3xx"]\n`);
    const result = await runCli(['run', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('✗ expectedStatusCodes 201,3xx — expected status 201 or 3xx, got 200');
    const http = tmp.write('expect.http', `# @expectedStatusCodes 2xx\nGET http://127.0.0.1:${port}/x\n`);
    const passed = await runCli(['run', http]);
    expect(passed.code).toBe(0);
    expect(passed.stderr).toContain('✓ expectedStatusCodes 2xx');
  });
});

describe('bodies: the content type decides', () => {
  test('forms starting with query= and forms from a file are sent as written; application/graphql as written; a bare query becomes GraphQL JSON', async () => {
    const { code, requests } = await run('httpyac/bodies.http');
    expect(code).toBe(0);
    expect(byName(requests, '/form-query').body.toString()).toBe('query=hello world&page=2');
    expect(byName(requests, '/form-file').body.toString()).toBe(readFileSync(join(FIXTURES, 'httpyac', 'form-body.txt'), 'utf8'));
    expect(byName(requests, '/form-file').headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(byName(requests, '/graphql-raw').headers['content-type']).toBe('application/graphql');
    expect(byName(requests, '/graphql-raw').body.toString()).toBe('query { me { id } }');
    expect(JSON.parse(byName(requests, '/graphql-bare').body.toString())).toEqual({ query: 'query Me { me { id } }' });
  });
});

describe('issue 27: comments around bodies, references and targets as the other tools write them', () => {
  test('VS Code: # and // lines above, inside and below a body, and after a request without one, are never sent', async () => {
    const { code, stderr, requests } = await run('vscode/comments.rest');
    expect([code, stderr.replace(/^HTTP\/1\.1 .*\n/gm, '')]).toEqual([0, '']);
    expect(byName(requests, '/comments/json').body.toString()).toBe('{\n  "name": "ada",\n  "team": "core"\n}');
    const none = byName(requests, '/comments/none');
    expect([none.body.length, none.headers['content-length']]).toEqual([0, undefined]);
  });

  test('httpyac: a response pasted below the body is not sent; a Markdown body keeps its # lines', async () => {
    const { code, requests } = await run('httpyac/pasted.http');
    expect(code).toBe(0);
    expect(byName(requests, '/pasted').body.toString()).toBe('{"a": 1}');
    expect(byName(requests, '/markdown').body.toString()).toBe('# Release notes\n\n- first');
  });

  test('an indented ### separates requests (httpyac, resterm): nothing of the next request is sent as a body', async () => {
    const { code, requests } = await run('httpyac/indented-separator.http');
    expect(code).toBe(0);
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /indented/first', 'GET /indented/second', 'GET /indented/third']);
    expect(byName(requests, '/indented/first').body.toString()).toBe('{"n": 1}');
    expect(byName(requests, '/indented/second').body.length).toBe(0);
    // A name after the indented separator names the request, as after one at the line's start.
    const named = await runCli(['run', join(FIXTURES, 'httpyac/indented-separator.http'), '-n', 'second', '--dry-run', '-e', 'host=http://127.0.0.1:1'], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(named.stdout).toMatch(/^### second\nGET http:\/\/127\.0\.0\.1:1\/indented\/second\n/m);
  });

  test('restcli: # @filter and # @query below the request line apply', async () => {
    const { code, stdout, requests } = await run('restcli/annotations-below.http', ['-o', 'raw']);
    expect([code, stdout]).toEqual([0, 'true\n']);
    expect(requests[0]?.body.length).toBe(0);
  });

  test("kulala: {{login.response.body.data.ok}} without $ and {{login.response.headers['Content-Type']}}", async () => {
    const { code, stderr, requests } = await run('kulala/references.http');
    expect([code, stderr.replace(/^HTTP\/1\.1 .*\n/gm, '')]).toEqual([0, '']);
    const use = byName(requests, '/kulala/use');
    expect(use.url).toBe('/kulala/use?ok=true&dollar=true');
    expect([use.headers['x-type'], use.headers['x-type-dotted']]).toEqual(['application/json', 'application/json']);
  });

  test('the request target goes out as written: quotes, a bare ?, dot segments; non-ASCII UTF-8 encoded, no fragment', async () => {
    const { code, requests } = await run('jetbrains/targets.http');
    expect(code).toBe(0);
    expect(requests.map((r) => r.url)).toEqual([`/targets/quoted?filter="a%20b"&tag='x'|y`, '/targets/bare?', '/targets/caf%C3%A9/./x?q=%C3%BC']);
  });

  test('a control character a variable puts in the URL: exit 3 naming the line and the variable, nothing sent', async () => {
    const file = tmp.write('tab.http', '# a tab would be dropped silently by a URL parser\nGET {{host}}/tab?q={{q}}\n');
    const before = received.length;
    const result = await runCli(['run', file, '-e', `host=http://127.0.0.1:${port}`, '-e', 'q=a\tb'], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^reqflow: \S*tab\.http:2: the URL of request "request-1" would contain a control character \(U\+0009\), from \{\{host\}\}, \{\{q\}\}\n/);
    expect(received.length).toBe(before);
  });
});
