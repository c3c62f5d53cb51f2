/**
 * httpyac's JavaScript in templates (`{{ this.name ?? "World" }}`, `{{ token.toUpperCase() }}`):
 * test/fixtures/dialect/httpyac/expressions.http sends, byte for byte, what httpyac 6.16.7 sent to
 * the same kind of recorder; an expression that throws, runs away or has no text is exit 3 naming
 * file:line and the expression, nothing sent; the forms reqflow already read keep their meaning.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ROOT, runCli, tempDir } from './helpers/cli.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const received: Received[] = [];
let server: Server;
let host = '';
const tmp = tempDir('reqflow-expr-');

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"token":"tok-from-login"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

async function run(file: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string; requests: Received[] }> {
  const before = received.length;
  const result = await runCli(['run', file, '-e', `host=${host}`, ...extra], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state'), ...env } });
  return { code: result.code, stdout: result.stdout, stderr: result.stderr, requests: received.slice(before) };
}

function write(name: string, text: string): string {
  return tmp.write(`files/${name}`, text);
}

describe("httpyac's JavaScript in templates, as httpyac 6.16.7 sends it", () => {
  test('this.name ?? default, arithmetic, a template literal, a method call, an object and an array as JSON (expressions.http)', async () => {
    const { code, stderr, requests } = await run(join(ROOT, 'test', 'fixtures', 'dialect', 'httpyac', 'expressions.http'));
    expect(stderr).not.toContain('reqflow:');
    expect(code).toBe(0);
    // Recorded from httpyac 6.16.7 (`httpyac send expressions.http -a --var host=…`): targets, the headers the file writes, bodies.
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /expr/greet?to=World', 'POST /expr/calc?sum=7&n=8', 'POST /expr/object', 'GET /expr/named?to=Ada&upper=ADA']);
    const calc = requests[1] as Received;
    expect([calc.headers['x-token'], calc.headers['x-greeting'], calc.headers['content-type'], calc.body]).toEqual(['ABC-DEF', 'Hello abc-def!', 'text/plain', 'len=7']);
    const object = requests[2] as Received;
    expect(object.body).toBe('{"user": {"name":"ada","tags":["a","b"]}, "list": [1,"4"], "flag": true}');
  });

  test('null, NaN, a Date, an Error and true become text as in httpyac; a promise is awaited', async () => {
    const file = write('values.http', 'GET {{host}}/values?v={{ null }}-{{ 0/0 }}-{{ new Date(0) }}-{{ new Error("boom") }}-{{ 2 > 1 }}-{{ (async () => 5)() }}\n');
    const { code, requests } = await run(file);
    expect(code).toBe(0);
    // Recorded from httpyac 6.16.7 (the same file, `httpyac send values.http -a --var host=…`).
    expect(requests.map((r) => r.url)).toEqual(['/values?v=null-NaN-1970-01-01T00:00:00.000Z-boom-true-5']);
  });
});

describe('what cannot be sent as the file says: exit 3 naming file:line and the expression, nothing sent', () => {
  test.each([
    ['a throwing expression', '{{ token.nope.deeper }}', /throws\.http:2: \{\{ token\.nope\.deeper \}\}.*TypeError: Cannot read properties of undefined/],
    ['a name that is no variable', '{{ missing + 1 }}', /throws\.http:2: \{\{ missing \+ 1 \}\}.*ReferenceError: missing is not defined/],
    ['undefined (httpyac sends the template as written)', '{{ this.nothing }}', /throws\.http:2: \{\{ this\.nothing \}\}.*evaluates to undefined/],
    ['false (httpyac sends the template as written)', '{{ 1 > 2 }}', /throws\.http:2: \{\{ 1 > 2 \}\}.*evaluates to false/],
    ['the request, which the expression does not see', '{{ request.url + "x" }}', /throws\.http:2: \{\{ request\.url \+ "x" \}\}.*ReferenceError: request is not defined/],
    ["a SyntaxError it throws (not one of parsing: no helper hint)", '{{ JSON.parse(token) }}', /throws\.http:2: \{\{ JSON\.parse\(token\) \}\}.*SyntaxError: Unexpected token 'a', "abc" is not valid JSON/],
    ['statements rather than one expression', '{{ 1)); globalThis.x = 1; ((1 }}', /throws\.http:2: .*SyntaxError: not one expression/],
    ['require (a template never may, trusted or not)', '{{ require("node:fs").readFileSync("/etc/hostname", "utf8") }}', /\{\{ require\("node:fs"\).*a template cannot require\(\) a module, trusted or not/],
  ])('%s', async (_what, template, message) => {
    const file = write('throws.http', `@token = abc\nGET {{host}}/never?v=${template}\n\n###\nGET {{host}}/after\n`);
    const { code, stderr, requests } = await run(file);
    expect(code).toBe(3);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(requests.map((r) => r.url)).toEqual(['/after']);
  });

  test("a template in a header or the body names its own line, not the request's (the same text in another request is not taken for it)", async () => {
    // The first request writes the same template: the second's error must not name its line.
    const text = '### one\nGET {{host}}/one\nX-Name: {{ this.nope.deeper }}\n\n### two\n# @name two\nPOST {{host}}/never\nX-One: 1\nX-Name: {{ this.nope.deeper }}\n\n{"a": "{{JSON.parse("{")}}"}\n';
    const header = await run(write('placed.http', text), ['-n', 'two']);
    expect(header.code).toBe(3);
    expect(header.stderr).toMatch(/placed\.http:9: \{\{ this\.nope\.deeper \}\} in request "two": TypeError: Cannot read properties of undefined/);
    const body = await run(write('placed-body.http', text.replace('X-Name: {{ this.nope.deeper }}\n\n{', 'X-Name: ok\n\n{')), ['-n', 'two']);
    expect(body.code).toBe(3);
    expect(body.stderr).toMatch(/placed-body\.http:11: \{\{ JSON\.parse\("\{"\) \}\} in request "two": SyntaxError/);
    expect([...header.requests, ...body.requests]).toEqual([]);
  });

  test("a helper's JavaScript argument ({{urlencode this.x}}) names the helper's template and its own line: below the request, in a file variable", async () => {
    // The same expression written alone on a later line must not be taken for it.
    const text = '@v = {{base64 nope.deeper()}}\n\n### two\nPOST {{host}}/never\nX-One: 1\nX-Name: {{urlencode this.nope.deeper}}\nX-Alone: {{ this.nope.deeper }}\n\n{"v": "{{v}}"}\n';
    const header = await run(write('helper-arg.http', text));
    expect(header.code).toBe(3);
    expect(header.stderr).toMatch(/^reqflow: \S*\/helper-arg\.http:6: \{\{ urlencode this\.nope\.deeper \}\} in request "two": TypeError: Cannot read properties of undefined/m);
    const fileVariable = await run(write('helper-arg-var.http', text.replace('X-Name: {{urlencode this.nope.deeper}}\nX-Alone: {{ this.nope.deeper }}\n', '')));
    expect(fileVariable.code).toBe(3);
    expect(fileVariable.stderr).toMatch(/^reqflow: \S*\/helper-arg-var\.http:1: \{\{ base64 nope\.deeper\(\) \}\} in request "two": ReferenceError: nope is not defined/m);
    expect([...header.requests, ...fileVariable.requests]).toEqual([]);
  });

  test('a template that runs past the time limit in a file variable above the request names that line; from stdin, the request line', async () => {
    const text = '# a comment\n@slow = {{ (() => { while (true) {} })() }}\n\nGET {{host}}/never\nX-Slow: {{slow}}\n';
    const { code, stderr, requests } = await run(write('slow-variable.http', text), ['--script-timeout', '200']);
    expect(code).toBe(3);
    expect(stderr).toMatch(/slow-variable\.http:2: \{\{ \(\(\) => \{ while \(true\) \{\} \}\)\(\) \}\}.*did not finish within 200 ms/);
    expect(requests).toEqual([]);
    const piped = await runCli(['run', '-', '-e', `host=${host}`, '--script-timeout', '200'], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') }, input: text });
    expect(piped.code).toBe(3);
    expect(piped.stderr).toMatch(/<stdin>:4: \{\{ \(\(\) => .*did not finish within 200 ms/);
  });

  test('require in a template is refused with --trust too (trust gives require to script blocks only)', async () => {
    const file = write('trusted-require.http', 'GET {{host}}/never?v={{ require("node:os").hostname() }}\n');
    const { code, stderr, requests } = await run(file, ['--trust']);
    expect(code).toBe(3);
    expect(stderr).toMatch(/a template cannot require\(\) a module, trusted or not/);
    expect(requests).toEqual([]);
  });

  test('a runaway expression ends at the script time limit', async () => {
    const file = write('runaway.http', 'GET {{host}}/never?v={{ (() => { while (true) {} })() }}\n');
    const { code, stderr, requests } = await run(file, ['--script-timeout', '200']);
    expect(code).toBe(3);
    expect(stderr).toMatch(/runaway\.http:1: \{\{ \(\(\) => \{ while \(true\) \{\} \}\)\(\) \}\}.*did not finish within 200 ms/);
    expect(requests).toEqual([]);
  });

  test('an expression that reads a secret gives a secret: masked in -v', async () => {
    const file = write('secret.http', '@password = hunter2-secret\nGET {{host}}/login\nX-Derived: {{ password.toUpperCase() }}\n');
    const { code, stderr, requests } = await run(file, ['-v']);
    expect(code).toBe(0);
    expect(requests[0]?.headers['x-derived']).toBe('HUNTER2-SECRET'); // httpyac 6.16.7 sends the same
    expect(stderr).not.toContain('HUNTER2-SECRET');
    expect(stderr).toMatch(/X-Derived: •••/i);
  });

  test("an expression that reads a secret and fails: its error's message and a thrown value are not shown (a piece of the secret is no masked value)", async () => {
    const pieces = ['null[token.slice(2)]', '(() => { throw token.slice(2) })()', '(() => { throw new Error(token.slice(2).split("").reverse().join("")) })()'];
    for (const expression of pieces) {
      const file = write('secret-error.http', `@token = s3cr3t-token-value\nGET {{host}}/never?v={{ ${expression} }}\n`);
      const { code, stdout, stderr, requests } = await run(file);
      expect(code).toBe(3);
      expect(stderr).toMatch(/secret-error\.http:2: .*\(not shown: the expression reads a secret\)/);
      expect(`${stdout}${stderr}`).not.toMatch(/cr3t-token|eulav-nekot/);
      expect(requests).toEqual([]);
    }
    // An expression that reads no secret keeps its whole message.
    const plain = write('plain-error.http', '@name = ada\nGET {{host}}/never?v={{ null[name.slice(1)] }}\n');
    expect((await run(plain)).stderr).toContain("TypeError: Cannot read properties of null (reading 'da')");
  });
});

describe('the forms reqflow already reads keep their meaning', () => {
  test('names, dotted names, helpers, system variables, $global and response references', async () => {
    const file = write('forms.http', [
      '@user = ada',
      '# @name login',
      'POST {{host}}/login',
      '',
      '###',
      '{{',
      '  $global.count = 2;',
      '}}',
      'GET {{host}}/forms?b64={{base64 user}}&enc={{urlencode "a b"}}&token={{login.response.body.$.token}}&yac={{login.token}}&g={{$global.count}}&int={{$randomInt 5 6}}',
      'X-Id: {{$random.uuid}}',
      'X-Next: {{ $global.count + 1 }}',
      '',
      'name={{ user',
      '}}',
    ].join('\n'));
    const { code, stderr, requests } = await run(file);
    expect(stderr).not.toContain('reqflow:');
    expect(code).toBe(0);
    expect(requests[1]?.url).toBe('/forms?b64=YWRh&enc=a%20b&token=tok-from-login&yac=tok-from-login&g=2&int=5');
    expect(requests[1]?.headers['x-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(requests[1]?.headers['x-next']).toBe('3');
    expect(requests[1]?.body).toBe('name=ada'); // a template over two lines, as before
  });

  test("process.env.NAME is the process environment's NAME, as httpyac 6.16.7 sends it (process-env.http); unset, exit 3 naming it, nothing sent", async () => {
    const file = join(ROOT, 'test', 'fixtures', 'dialect', 'httpyac', 'process-env.http');
    const sent = await run(file, [], { RF_API_BASE: host, RF_TOKEN: 'abc' });
    expect(sent.stderr).not.toContain('reqflow:');
    expect(sent.code).toBe(0);
    // httpyac 6.16.7 against a recorder, RF_TOKEN=abc: GET /penv/token?t=abc, Authorization: Bearer abc.
    expect(sent.requests.map((r) => [r.method, r.url, r.headers.authorization])).toEqual([['GET', '/penv/token?t=abc', 'Bearer abc']]);
    // Unset, httpyac sends the template as written ({{process.env.RF_TOKEN}}): reqflow refuses.
    const unset = await run(file, [], { RF_API_BASE: host });
    expect([unset.code, unset.requests]).toEqual([3, []]);
    expect(unset.stderr).toMatch(/^reqflow: environment variable RF_TOKEN is not set/);
  });

  test('an unknown helper and an unknown name are refused as before', async () => {
    const helper = await run(write('helper.http', 'GET {{host}}/never?v={{upper $guid}}\n'));
    expect([helper.code, helper.requests]).toEqual([3, []]);
    expect(helper.stderr).toMatch(/unknown template helper "upper"/);
    const name = await run(write('name.http', 'GET {{host}}/never?v={{boss-api}}\n'));
    expect([name.code, name.requests]).toEqual([3, []]);
    expect(name.stderr).toMatch(/unknown variable "boss-api"/);
  });
});
