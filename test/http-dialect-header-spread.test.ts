/**
 * httpyac's header spread, `...name` among a request's headers (docs/http-dialect.md, "httpyac's
 * header spread"): the fixture (test/fixtures/dialect/httpyac/header-spread.http, the shape of a
 * real httpyac tutorial's file) sends what httpyac 6.16.7 sent from it to the same recorder; what
 * reqflow cannot send as httpyac would is refused naming the line, and nothing of that request is
 * sent. It was exit 2 for the whole file: `header line has no "Name: value" form`.
 */
import { describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { ROOT } from './helpers/cli.js';
import { recordedRuns } from './helpers/recorded-runs.js';

const runs = recordedRuns('reqflow-header-spread-');
const { tmp, reqflow } = runs;

/** The headers the file decides (not the client's own: user-agent, host, connection; nor X-Client, from the fixtures' profile). */
function decided(headers: Record<string, unknown>): Record<string, unknown> {
  const { 'user-agent': _ua, host: _host, connection: _connection, 'accept-encoding': _encoding, 'x-client': _profile, ...rest } = headers;
  return rest;
}

const SCRIPT = `{{\n  exports.defaultHeaders = { 'X-A': 'one', 'X-N': 5 };\n}}\n`;

describe('...name: the object a script exports, spread into the headers', () => {
  test('header-spread.http: what httpyac sends — a {{+ hook\'s object, a body right below the spread, an entry replacing a header line of the same name above or below it in any spelling, two spreads', async () => {
    const result = await reqflow(join(ROOT, 'test', 'fixtures', 'dialect', 'httpyac', 'header-spread.http'));
    expect(result.stderr).not.toContain('reqflow:');
    expect(result.code).toBe(0);
    const sent = result.got.map((r) => ({ line: `${r.method} ${r.url}`, headers: decided(r.headers), body: r.body.toString('latin1') }));
    // Recorded from httpyac 6.16.7 (`httpyac send header-spread.http -a --var host=…`), header order aside.
    expect(sent).toEqual([
      { line: 'POST /spread/body?page=4', headers: { authorization: 'Bearer t2', email: 'dev@example.com', accept: '*/*', 'content-length': '21' }, body: '{\n    "color":"red"\n}' },
      { line: 'GET /spread/override', headers: { accept: 'application/json', 'x-a': 'spread', 'x-b': 'two', 'x-n': '5' }, body: '' },
      { line: 'GET /spread/two', headers: { accept: 'application/json', authorization: 'Bearer t2', email: 'dev@example.com', 'x-n': '5', 'x-a': 'spread' }, body: '' },
      { line: 'GET /spread/cookie', headers: { authorization: 'Bearer t2', email: 'dev@example.com', accept: '*/*', cookie: 'userId=A657483' }, body: '' },
    ]);
  });

  test('--dry-run shows the spread headers as they would go out, and sends nothing', async () => {
    const file = tmp.write('dry.http', `${SCRIPT}GET {{host}}/dry\n...defaultHeaders\n`);
    const result = await reqflow(file, ['--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).toMatch(/X-A: one/);
    expect(result.stdout + result.stderr).toMatch(/X-N: 5/);
    expect(result.got).toEqual([]);
  });
});

describe('what reqflow cannot send as httpyac would: refused naming the line, nothing of that request sent', () => {
  test('a name nothing defines: exit 3; the requests above it are sent', async () => {
    const file = tmp.write('missing.http', `GET {{host}}/first\n\n###\nGET {{host}}/never\n...defaultHeaders\n`);
    const result = await reqflow(file);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^reqflow: \S*missing\.http:5: \.\.\.defaultHeaders in request "request-2": defaultHeaders is not defined$/m);
    expect(result.stderr).toContain('hint: httpyac spreads an object a {{ }} script exports');
    expect(result.got.map((r) => r.url)).toEqual(['/first']);
  });

  test.each([
    ['a file variable holding JSON text (httpyac would spread its characters)', '@defaultHeaders = {"X-A": "1"}\n', [], /defaultHeaders is text \(a file, environment or profile value\), not an object of headers/],
    ['-e', '', ['-e', 'defaultHeaders=x'], /defaultHeaders is text \(-e\), not an object of headers/],
    ['null', '{{\n  exports.defaultHeaders = null;\n}}\n', [], /defaultHeaders is null, not an object of headers/],
    ['an array', '{{\n  exports.defaultHeaders = [["X-A", "1"]];\n}}\n', [], /defaultHeaders is text \(or an array\) a script set, not an object of headers/],
    ['a number', '{{\n  exports.defaultHeaders = 5;\n}}\n', [], /defaultHeaders is a number, not an object of headers/],
  ])('not an object a script made: %s — exit 2', async (_what, above, args, message) => {
    const file = tmp.write('not-object.http', `${above}GET {{host}}/never\n...defaultHeaders\n`);
    const result = await reqflow(file, args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`not-object\\.http:\\d+: \\.\\.\\.defaultHeaders in request "request-1": ${message.source}`));
    expect(result.got).toEqual([]);
  });

  test.each([
    ['an object as its value', `{ 'X-A': { a: 1 } }`, /entry "X-A" is an object: a spread header's value is text or a number/],
    ['an array as its value (httpyac sends several lines)', `{ 'X-A': ['1', '2'] }`, /entry "X-A" is an array: a spread header's value is text or a number/],
    ['null as its value', `{ 'X-A': null }`, /entry "X-A" is null/],
    ['a boolean as its value', `{ 'X-A': true }`, /entry "X-A" is a boolean/],
    ['a name that is no header name', `{ 'Bad Name': '1' }`, /entry "Bad Name" is no header name/],
    ['a line break in its value', `{ 'X-A': 'a\\r\\nX-Injected: 1' }`, /entry "X-A": its value holds a control character \(U\+000D\), which no header value may/],
    ['a character past ASCII in its value', `{ 'X-A': 'café' }`, /entry "X-A": its value holds a character past ASCII/],
    ['a template in its value (httpyac resolves it; reqflow takes a script\'s values literally)', `{ 'Authorization': 'Bearer {{token}}' }`, /entry "Authorization": its value holds a template/],
  ])('an entry with %s: exit 2 naming it', async (_what, object, message) => {
    const file = tmp.write('entry.http', `@token = t\n{{\n  exports.h = ${object};\n}}\nGET {{host}}/never\n...h\n`);
    const result = await reqflow(file);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`entry\\.http:6: \\.\\.\\.h in request "request-1": ${message.source}`));
    expect(result.stderr).not.toContain('X-Injected');
    expect(result.got).toEqual([]);
  });

  test('an entry over a header the request writes on several lines (httpyac keeps one by the spelling of the names): exit 2', async () => {
    const file = tmp.write('twice.http', `{{\n  exports.h = { accept: 'application/json' };\n}}\nGET {{host}}/never\nAccept: text/plain\naccept: text/html\n...h\n`);
    const result = await reqflow(file);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/twice\.http:7: \.\.\.h in request "request-1": it sets accept, which the request writes on several lines/);
    expect(result.got).toEqual([]);
  });

  test.each([
    ['...obj.headers', 'an expression'],
    ['...defaultHeaders,', 'a trailing comma: a SyntaxError in httpyac'],
  ])('%s (%s): exit 2 when the file is read, naming the line; nothing of the file is sent', async (line) => {
    const file = tmp.write('form.http', `${SCRIPT}GET {{host}}/first\n\n###\nGET {{host}}/never\n${line}\n`);
    const result = await reqflow(file);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`form.http:8:1: header line has no "Name: value" form: ${line}`);
    expect(result.stderr).toContain("httpyac's spread is ...name, the name of a variable that holds an object");
    expect(result.got).toEqual([]);
  });
});
