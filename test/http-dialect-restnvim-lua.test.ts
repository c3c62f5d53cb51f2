/**
 * rest.nvim's Lua scripts (docs/http-dialect.md, "rest.nvim's Lua scripts"; docs/scripts.md):
 * the fixtures in test/fixtures/dialect/restnvim/ run against a recorder that answers JSON, and
 * what reqflow sends is what rest.nvim's script API makes of them; scripts that reach for the
 * machine, loop for ever or eat memory end as one-line failures naming their line.
 */
import { describe, expect, test } from '@jest/globals';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers/cli.js';
import { recordedRuns } from './helpers/recorded-runs.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'dialect', 'restnvim');
const TOKEN = 'lua-tok-4f1c9a77e2';
const SESSION = 'lua-sess-93b0d1c5aa';
const runs = recordedRuns('reqflow-restnvim-lua-', {
  answer: (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ token: TOKEN, session: SESSION, data: { id: 7, tags: ['a', null, 'c'] } }));
  },
  variables: ['user=ada'],
});
const { tmp, env, reqflow } = runs;

/** A one-request file whose response handler is `code` (Lua). */
const handler = (name: string, code: string): string => tmp.write(name, `GET {{host}}/restnvim/${name}\n\n# @lang=lua\n> {%\n${code}\n%}\n`);

describe("rest.nvim's Lua scripts: what is sent", () => {
  test('a pre-request script sets variables of its request; a handler decodes the JSON body and sets globals the next request uses', async () => {
    const result = await reqflow(join(FIXTURES, 'lua-scripts.http'));
    expect(result.code).toBe(0);
    expect(result.got.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /restnvim/items?page=42', 'POST /restnvim/login', 'GET /restnvim/items/7']);
    expect(result.got[0]?.headers['x-trace']).toBe('lua-ada');
    expect(result.got[2]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(result.got[2]?.headers['x-session']).toBe(SESSION);
    // print() goes to stderr as a log line; JSON's null is vim.NIL.
    expect(result.stderr).toContain('reqflow: log: status\t200\tOK\ttype\tapplication/json\ttags\t3\ttrue');
    // sessionSecret looks like a credential: the value the Lua script set is registered as a
    // secret, masked in a header whose name says nothing.
    const verbose = await reqflow(join(FIXTURES, 'lua-scripts.http'), ['-v']);
    expect(verbose.code).toBe(0);
    expect(verbose.got[2]?.headers['x-session']).toBe(SESSION);
    expect(verbose.stderr).toContain('X-Session: •••');
    expect(verbose.stderr).not.toContain(SESSION);
  });

  test("the corpus form (yasuc/rails-nextjs): a handler that formats the body with jq runs, as jq's identity filter, no program started", async () => {
    const result = await reqflow(join(FIXTURES, 'lua-corpus.http'));
    expect(result.stderr).not.toContain('failed');
    expect(result.code).toBe(0);
    expect(result.got.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /books/']);
    // jq . prints two-space indented JSON: the script sees that text.
    expect(result.stderr).toContain('reqflow: log: {\n  "token": "•••",\n  "session": ');
  });
});

describe("rest.nvim's Lua scripts: the rest of the API", () => {
  test('vim.json encodes and decodes as lua-cjson (null is vim.NIL), the Lua library is there, a name nothing defines is ""', async () => {
    const file = handler(
      'json.http',
      [
        `local value = vim.json.decode('{"b":[1,null,"x\\\\n\\\\u00e9"],"a":true,"n":1.5}')`,
        'print(vim.json.encode(value), value.b[2] == vim.NIL, math.type(value.b[1]), value.n)',
        'print(string.format("%05.1f", 3.14159), #table.concat({ "a", "b" }), utf8.len("é"), os.time() > 0, type(os.date("%Y")))',
        'print("[" .. client.global.get("nothing") .. "]", "[" .. request.variables.get("nothing") .. "]", vim.env.nothing)',
      ].join('\n'),
    );
    const result = await reqflow(file);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('reqflow: log: {"a":true,"b":[1,null,"x\\né"],"n":1.5}\ttrue\tinteger\t1.5');
    expect(result.stderr).toContain('reqflow: log: 003.1\t2\t1\ttrue\tstring');
    expect(result.stderr).toContain('reqflow: log: []\t[]\tnil');
  });
});

describe("rest.nvim's Lua scripts from the attacker's side: one line naming the script's line, nothing reached", () => {
  test.each([
    ['os.execute', (marker: string) => `os.execute("touch ${marker}")`, "attempt to call a nil value (field 'execute')"],
    ['io.open', (marker: string) => `io.open("${marker}", "w"):write("x")`, "attempt to index a nil value (global 'io')"],
    ['require', (marker: string) => `require("os").execute("touch ${marker}")`, "attempt to call a nil value (global 'require')"],
    ['string.dump (bytecode)', (marker: string) => `local f = string.dump(function() os.execute("touch ${marker}") end)`, "attempt to call a nil value (field 'dump')"],
    ['load', (marker: string) => `load("os.execute('touch ${marker}')")()`, "attempt to call a nil value (global 'load')"],
    ['vim.fn.system', (marker: string) => `vim.fn.system({ "touch", "${marker}" })`, 'vim.fn.system runs a program: not available in request-file scripts'],
  ])('%s is not there', async (name, payload, message) => {
    const marker = join(tmp.dir, `escaped-${name.replace(/\W/g, '-')}`);
    const file = handler(`${name.replace(/\W/g, '-')}.http`, `local before = 1\n${payload(marker)}`);
    const result = await reqflow(file);
    expect(existsSync(marker)).toBe(false);
    expect(result.stderr).toContain(`${file.split('/').pop()}:6 (script line 3): ${message}`);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  test('an endless loop (also one that catches the timeout with pcall) ends at the time limit as a failed handler', async () => {
    const file = handler('endless.http', 'local n = 0\nwhile true do pcall(function() while true do n = n + 1 end end) end');
    const result = await reqflow(file, ['--script-timeout', '500']);
    expect(result.code).toBe(1);
    expect(result.got).toHaveLength(1);
    expect(result.stderr).toContain('endless.http:4: did not finish within 500 ms');
  });

  test.each([
    ['a huge table', 'local t = {}\nfor i = 1, 1e9 do t[i] = { i, i, i, i, i, i, i, i } end'],
    ['a huge string', 'local s = string.rep("x", 1e5)\nlocal keep = {}\nfor i = 1, 1e9 do s = s .. s; keep[i] = s end'],
  ])('%s ends at the memory limit as a failed handler, and the run goes on', async (name, code) => {
    const file = tmp.write(`hog-${name.replace(/\W/g, '-')}.http`, `GET {{host}}/restnvim/hog\n\n# @lang=lua\n> {%\n${code}\n%}\n\n###\nGET {{host}}/restnvim/after\n`);
    // A time limit far away: the memory limit is what ends it.
    const result = await reqflow(file, ['--script-timeout', '60000']);
    expect(result.stderr).toContain('used more than 128 MB of memory');
    expect(result.got.map((r) => r.url)).toEqual(['/restnvim/hog', '/restnvim/after']);
    expect(result.code).toBe(1);
  });

  test('a failing pre-request script: exit 2 naming its line, the request not sent', async () => {
    const file = tmp.write('pre-fails.http', '# @lang=lua\n< {%\nlocal t = nil\nrequest.variables.set("x", t.field)\n%}\nGET {{host}}/restnvim/never\n');
    const result = await reqflow(file);
    expect(result.code).toBe(2);
    expect(result.got).toHaveLength(0);
    expect(result.stderr).toContain("pre-fails.http:4 (script line 3): attempt to index a nil value (local 't')");
  });

  test('another script language is refused when the file is read, naming the # @lang line', async () => {
    const file = tmp.write('python.http', 'GET {{host}}/restnvim/never\n\n# @lang=python\n> {%\nprint(1)\n%}\n');
    const result = await reqflow(file);
    expect(result.code).toBe(2);
    expect(result.got).toHaveLength(0);
    expect(result.stderr).toContain('python.http:3:1: # @lang python: reqflow runs request scripts in JavaScript or Lua');
  });
});
