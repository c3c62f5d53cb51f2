/**
 * httpyac's `{{@request` hook (docs/http-dialect.md, "httpyac's request hooks"): the fixture
 * (test/fixtures/dialect/httpyac/request-hook.http) sends, byte for byte, what httpyac 6.16.7
 * sent from it to the same recorder; what reqflow cannot send as httpyac would is exit 2 naming
 * the hook's line, and nothing of that request is sent.
 */
import { describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { ROOT } from './helpers/cli.js';
import { recordedRuns } from './helpers/recorded-runs.js';

const runs = recordedRuns('reqflow-request-hook-', { variables: ['user=ada'] });
const { tmp, reqflow } = runs;

/** The headers a hook decides (not the client's own: user-agent, host, connection; nor X-Client, from the fixtures' profile). */
function decided(headers: Record<string, unknown>): Record<string, unknown> {
  const { 'user-agent': _ua, host: _host, connection: _connection, 'accept-encoding': _encoding, 'x-client': _profile, ...rest } = headers;
  return rest;
}

describe('{{@request: what httpyac sends', () => {
  test('the global hook before every request, then the request\'s own (above the request line or below the body): headers, body, URL and method as the hooks left them', async () => {
    const result = await reqflow(join(ROOT, 'test', 'fixtures', 'dialect', 'httpyac', 'request-hook.http'));
    expect(result.stderr).not.toContain('reqflow:');
    expect(result.code).toBe(0);
    const sent = result.got.map((r) => ({ line: `${r.method} ${r.url}`, headers: decided(r.headers), body: r.body.toString('latin1') }));
    // Recorded from httpyac 6.16.7 (`httpyac send request-hook.http -a --var host=… user=ada`), header order aside.
    expect(sent).toEqual([
      { line: 'POST /hook/token', headers: { 'content-type': 'application/json', 'x-trace': 'global-POST', 'x-count': '2', accept: '*/*', 'content-length': '21' }, body: '{"Token":"ada-token"}' },
      { line: 'PATCH /hook/put?x=2', headers: { accept: 'application/json', 'content-type': 'text/plain', 'x-trace': 'global-PUT', 'x-count': '2', 'x-seen': 'global-PUT', 'content-length': '11' }, body: 'plain body!' },
      { line: 'GET /hook/plain', headers: { 'x-trace': 'global-GET', 'x-count': '2', accept: '*/*' }, body: '' },
    ]);
  });

  test('a global hook below a request runs before the requests above it too, before each request\'s own (request-hook-below.http)', async () => {
    const result = await reqflow(join(ROOT, 'test', 'fixtures', 'dialect', 'httpyac', 'request-hook-below.http'));
    expect(result.stderr).not.toContain('reqflow:');
    expect(result.code).toBe(0);
    const sent = result.got.map((r) => ({ line: `${r.method} ${r.url}`, headers: decided(r.headers), body: r.body.toString('latin1') }));
    // Recorded from httpyac 6.16.7 (`httpyac send request-hook-below.http -a --var host=…`), header order aside.
    expect(sent).toEqual([
      { line: 'GET /hook/first', headers: { 'x-order': 'written+global', 'x-late': 'late-GET', accept: '*/*' }, body: '' },
      { line: 'POST /hook/second', headers: { 'content-type': 'text/plain', 'x-order': 'written+global+own', 'x-late': 'late-POST', accept: '*/*', 'content-length': '6' }, body: 'a body' },
    ]);
  });

  test('the hook\'s exports are variables of the requests after it; its request is the resolved one', async () => {
    const file = tmp.write('exports.http', `{{@request\n  exports.seen = request.url;\n}}\nGET {{host}}/first?u={{user}}\n\n###\nGET {{host}}/second?from={{seen}}\n`);
    const result = await reqflow(file);
    expect(result.code).toBe(0);
    expect(result.got.map((r) => r.url)).toEqual(['/first?u=ada', `/second?from=${runs.recorder.url}/first?u=ada`]);
  });
});

describe('{{+, {{+request, {{+response: the file\'s hooks, for every request wherever written', () => {
  test('file-hooks.http sends what httpyac sends: {{+ before each request (its exports the request\'s), {{+request below a request on the one above it too, {{+response after each', async () => {
    const result = await reqflow(join(ROOT, 'test', 'fixtures', 'dialect', 'httpyac', 'file-hooks.http'));
    expect(result.stderr).not.toContain('reqflow:');
    expect(result.code).toBe(0);
    const sent = result.got.map((r) => ({ line: `${r.method} ${r.url}`, headers: decided(r.headers), body: r.body.toString('latin1') }));
    // Recorded from httpyac 6.16.7 (`httpyac send file-hooks.http -a --var host=…`), header order aside.
    expect(sent).toEqual([
      { line: 'POST /one?tag=every&count=1', headers: { 'content-type': 'text/plain', 'x-file': 'hook-POST', accept: '*/*', 'content-length': '10' }, body: 'first body' },
      { line: 'GET /two?tag=every&count=2', headers: { 'x-file': 'hook-GET', accept: '*/*' }, body: '' },
      { line: 'GET /three?seen=2&count=3', headers: { 'x-file': 'hook-GET', accept: '*/*' }, body: '' },
    ]);
  });

  test('an imported file\'s {{+request runs on the importing file\'s requests (httpyac 6.16.7 sends X-Lib)', async () => {
    tmp.write('lib.http', `{{+request\n  request.headers['X-Lib'] = 'from-lib';\n}}\n{{\n  exports.libvar = 'lv';\n}}\n`);
    const file = tmp.write('main.http', '# @import ./lib.http\nGET {{host}}/imp?v={{libvar}}\n');
    const result = await reqflow(file);
    expect(result.code).toBe(0);
    expect(result.got.map((r) => [r.url, r.headers['x-lib']])).toEqual([['/imp?v=lv', 'from-lib']]);
  });
});

describe('what reqflow cannot send as httpyac would: exit 2 naming the hook, that request not sent', () => {
  test.each([
    ['another property of request (got options)', 'request.options = { timeout: 1 };', 'it sets request.options'],
    ['a body that is not text', 'request.body = { a: 1 };', 'request.body is not text'],
    ['a header value that is an object', "request.headers['X-A'] = { a: 1 };", 'header "X-A" is not text'],
    ['exports.$cancel (httpyac skips the request)', 'exports.$cancel = true;', 'it sets exports.$cancel'],
    ['a header named __proto__ (a plain object would drop it)', "request.headers['__proto__'] = 'v';", 'it sets a header named __proto__'],
    ['a header named __proto__ set by defineProperty', "Object.defineProperty(request.headers, '__proto__', { value: 'v', enumerable: true });", 'it sets a header named __proto__'],
  ])('%s', async (_, code, why) => {
    const file = tmp.write('refused.http', `GET {{host}}/before\n\n###\n{{@request\n  ${code}\n}}\nGET {{host}}/never\n`);
    const result = await reqflow(file);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`refused.http:4: httpyac's {{@request hook: ${why}; reqflow cannot send that as httpyac would`);
    expect(result.got.map((r) => r.url)).toEqual(['/before']);
  });

  test('a hook that throws: its line, the request not sent', async () => {
    const file = tmp.write('throws.http', `{{@request\n  request.headers.Missing.replace('a', 'b');\n}}\nGET {{host}}/never\n`);
    const result = await reqflow(file);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/request hook failed: \S*throws\.http:2 \(script line 1\): TypeError/);
    expect(result.got).toEqual([]);
  });

  test('a body with an included file: refused naming the hook (httpyac hands the hook the bytes)', async () => {
    tmp.write('part.txt', 'from a file\n');
    const file = tmp.write('include.http', `{{@request\n  request.body = 'x';\n}}\nPOST {{host}}/never\nContent-Type: text/plain\n\n< ./part.txt\n`);
    const result = await reqflow(file);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("include.http:1: httpyac's {{@request hook: the body includes files or bytes");
    expect(result.got).toEqual([]);
  });

  test('a hook in a block with # @name and no request never runs (httpyac: no global block, no request of its own)', async () => {
    const file = tmp.write('named.http', `# @name setup\n{{@request\n  request.headers.X = 'y';\n}}\n\n###\nGET {{host}}/plain\n`);
    const result = await reqflow(file);
    expect(result.code).toBe(0);
    expect(result.got.map((r) => [r.url, r.headers.x])).toEqual([['/plain', undefined]]);
  });

  test.each([['{{+after'], ['{{@streaming'], ['{{+streaming']])('%s stays refused naming the line, nothing in the file sent', async (opening) => {
    const file = tmp.write('other.http', `GET {{host}}/a\n\n${opening}\n  console.log(1);\n}}\n`);
    const result = await reqflow(file);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`other.http:3:1: httpyac's ${opening} script hook is not supported`);
    expect(result.got).toEqual([]);
  });
});
