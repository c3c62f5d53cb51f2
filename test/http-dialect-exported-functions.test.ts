/**
 * Functions an httpyac script exports, for the later scripts and templates of the run
 * (docs/http-dialect.md, "Functions a script exports"): the fixture
 * (test/fixtures/dialect/httpyac/exported-functions.http) sends what httpyac 6.16.7 sent from it to
 * the same recorder. They were not carried (`ReferenceError: sign is not defined`, nothing sent).
 * One that reqflow cannot make again as httpyac keeps it is refused where it is used, naming the
 * script that exported it and why; nothing of that request is sent.
 */
import { describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { ROOT } from './helpers/cli.js';
import { recordedRuns } from './helpers/recorded-runs.js';

const runs = recordedRuns('reqflow-exported-functions-');
const { tmp, reqflow } = runs;

describe('exported functions: what httpyac sends', () => {
  test('exported-functions.http: a global block\'s functions (with what they use of it: its functions, classes, values and variables) in templates, a request script\'s in later requests, an exported promise awaited, a carried function exported again', async () => {
    const result = await reqflow(join(ROOT, 'test', 'fixtures', 'dialect', 'httpyac', 'exported-functions.http'));
    expect(result.stderr).not.toContain('reqflow:');
    expect(result.code).toBe(0);
    // Recorded from httpyac 6.16.7 (`httpyac send exported-functions.http -a --var host=…`).
    expect(result.got.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /fn/templates?s=sig-cba!&t=42&b=qq&a=abc123-z:a:b&f=120',
      'GET /fn/scripts?u=Q&s=sig-zyx!&p=abc123-y:a:b',
      'GET /fn/later?u=SIG-K!',
    ]);
  });

  test('a function that reads a secret: what a template makes with it is masked as the secret is', async () => {
    const file = tmp.write('secret.http', `@apiToken = s3cr3t-value-42\n{{\n  exports.reversed = () => apiToken.split('').reverse().join('');\n}}\nGET {{host}}/secret?sig={{ reversed() }}\n`);
    const result = await reqflow(file, ['-v']);
    expect(result.code).toBe(0);
    expect(result.got[0]?.url).toBe('/secret?sig=24-eulav-t3rc3s');
    expect(result.stderr).toContain('/secret?sig=');
    expect(result.stdout + result.stderr).not.toContain('24-eulav-t3rc3s');
  });
});

describe('a function reqflow cannot make again as httpyac keeps it: refused where it is used, naming why', () => {
  test.each([
    ['changes a name outside it (a counter: it would start afresh in each script)', 'let n = 0;\n  exports.f = () => ++n;', 'it changes n, which is outside it'],
    ['reads a name of the code around it', 'exports.f = (() => { const base = 10; return (x) => base + x; })();', 'it uses base of the code around it'],
    ['reads a value that is not JSON', 'const stamp = new Date(7);\n  exports.f = () => stamp.getTime();', 'it uses stamp, a value that is not JSON'],
    ["reads the script's request", 'exports.f = () => request.url;', 'it uses request of the script that made it'],
    ['uses a top-level name of a script that awaits at its top level', "const base = await 1;\n  exports.f = () => base;", 'it uses base of a script that awaits at its top level'],
    ['is a method', "const o = { m(x) { return x; } };\n  exports.f = o.m;", 'it is a method, a getter or a setter'],
    ['is bound', 'exports.f = ((x) => x).bind(null);', 'it is not written in the script'],
  ])('one that %s: a later template is exit 3, a later script exit 2; the request that exported it is sent', async (_what, script, why) => {
    const file = tmp.write('refused.http', `{{\n  ${script}\n}}\nGET {{host}}/made\n\n###\nGET {{host}}/template?v={{ f(1) }}\n\n###\n{{\n  exports.v = f(1);\n}}\nGET {{host}}/script\n`);
    const result = await reqflow(file);
    expect(result.got.map((r) => r.url)).toEqual(['/made']);
    expect(result.code).toBe(3);
    const lines = script.split('\n').length;
    expect(result.stderr).toContain(`refused.http:${6 + lines}: {{ f(1) }} in request "request-2": f, which the script at`);
    expect(result.stderr).toContain(`refused.http:2 exports, cannot be used beyond that script: ${why}`);
    expect(result.stderr).toMatch(new RegExp(`pre-request script failed: \\S*refused\\.http:${10 + lines}: f, which the script at \\S*refused\\.http:2 exports, cannot be used beyond that script`));
  });

  test('a script that catches what calling one throws still fails (it would send its fallback, not what httpyac sends); one that only names it in a comment runs', async () => {
    const counter = '{{\n  let n = 0;\n  exports.next = () => ++n;\n}}\n';
    const caught = tmp.write('caught.http', `${counter}GET {{host}}/made\n\n###\n{{\n  try { exports.v = next(); } catch { exports.v = 'fallback'; }\n}}\nGET {{host}}/caught?v={{v}}\n`);
    const result = await reqflow(caught);
    expect(result.code).toBe(2);
    expect(result.got.map((r) => r.url)).toEqual(['/made']);
    expect(result.stderr).toMatch(/pre-request script failed: \S*caught\.http:9: next, which the script at \S*caught\.http:2 exports, cannot be used beyond that script: it changes n/);
    const comment = tmp.write('comment.http', `${counter}GET {{host}}/made\n\n###\n{{\n  // next() is not needed here\n  exports.v = 'plain';\n}}\nGET {{host}}/comment?v={{v}}&w={{ "next one" }}\n`);
    const ran = await reqflow(comment);
    expect(ran.code).toBe(0);
    expect(ran.got.map((r) => r.url)).toEqual(['/made', '/comment?v=plain&w=next%20one']);
  });

  test('exported again as text, the name is text for the requests after it', async () => {
    const file = tmp.write('replaced.http', `{{\n  exports.f = (x) => x + 1;\n}}\nGET {{host}}/one?v={{ f(1) }}\n\n###\n{{\n  exports.f = 'text';\n}}\nGET {{host}}/two?v={{f}}\n`);
    const result = await reqflow(file);
    expect(result.code).toBe(0);
    expect(result.got.map((r) => r.url)).toEqual(['/one?v=2', '/two?v=text']);
  });
});
