/**
 * `??` checks say true things: a body's numbers are compared as the server wrote them (a double
 * made 12345678901234567891 equal …890, and `"1.10"` read as `1.1`), what cannot be read (a path
 * in a text body, a header the response lacks) fails every comparison — `!=` passed on it —, a
 * `matches` pattern that is no regular expression is a failed check (it was an internal error that
 * dropped the request's other checks), and `{{…}}` in a check is resolved (it compared with null).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

const tmp = tempDir('reqflow-checks-exact-');
let server: Recorder;

beforeAll(async () => {
  server = await startRecorder((req, res) => {
    if (req.url === '/text') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('not json at all');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"id": 12345678901234567890, "f": 1.10, "e": 1e400, "u": "hello", "item": {"price": 10.50, "qty": 2}, "prices": [10.50, 3], "zero": 0.0}');
  });
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

/** `reqflow test` of one request with these checks: each check's line and whether it passed. */
async function checks(path: string, lines: string[], head = ''): Promise<{ code: number | null; results: Array<[string, boolean]>; stdout: string }> {
  const file = tmp.write(`t${lines.length}-${path.slice(1)}.http`, `${head}### t\nGET ${server.url}${path}\n\n${lines.map((line) => `?? ${line}`).join('\n')}\n`);
  const result = await runCli(['test', file], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
  const results = lines.map((line): [string, boolean] => [line, !new RegExp(`✗ ${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`).test(result.stdout)]);
  return { code: result.code, results, stdout: result.stdout };
}

describe('numbers as the server wrote them', () => {
  test('a 64-bit id is compared exactly; a decimal as written, by value or quoted as text', async () => {
    const lines = [
      'body $.id == 12345678901234567890',
      'body $.id == 12345678901234567891',
      'body $.id != 12345678901234567891',
      'body $.id > 12345678901234567889',
      'body $.id < 12345678901234567890',
      'body $.id isNumber',
      'body $.f == 1.1',
      'body $.f == 1.10',
      'body $.f == "1.10"',
      'body $.f == "1.1"',
      'body $.e == 1e400',
      'body $.item == {"price": 10.5, "qty": 2}',
      'body $.prices includes 10.5',
      'body $.zero isFalse',
    ];
    const { results, stdout } = await checks('/json', lines);
    expect(results).toEqual([
      ['body $.id == 12345678901234567890', true],
      ['body $.id == 12345678901234567891', false],
      ['body $.id != 12345678901234567891', true],
      ['body $.id > 12345678901234567889', true],
      ['body $.id < 12345678901234567890', false],
      ['body $.id isNumber', true],
      ['body $.f == 1.1', true],
      ['body $.f == 1.10', true],
      ['body $.f == "1.10"', true],
      ['body $.f == "1.1"', false],
      ['body $.e == 1e400', true],
      // Numbers inside objects and lists compare by value, and 0.0 is false, as before they were kept as written.
      ['body $.item == {"price": 10.5, "qty": 2}', true],
      ['body $.prices includes 10.5', true],
      ['body $.zero isFalse', true],
    ]);
    expect(stdout).toContain('expected body $.id == 12345678901234567891, got 12345678901234567890');
  });
});

describe('what cannot be read', () => {
  test('a path in a text body and a missing header fail every comparison, != too', async () => {
    const text = await checks('/text', ['body $.x == 1', 'body $.x != 1', 'body a.b != 2']);
    expect(text.results.map(([, passed]) => passed)).toEqual([false, false, false]);
    expect(text.stdout).toContain("got nothing: the body is not JSON (text/plain)");
    const header = await checks('/json', ['header x-nope != abc', 'header x-nope == abc', 'header content-type == application/json']);
    expect(header.results.map(([, passed]) => passed)).toEqual([false, false, true]);
    expect(header.stdout).toContain('got nothing: header x-nope is not in the response');
  });

  test('a matches pattern that is no regular expression: a failed check, and the request\'s other checks are still read', async () => {
    const { code, results, stdout } = await checks('/json', ['body $.u matches [unclosed', 'body $.u matches ^h.llo$', 'status == 200']);
    expect(code).toBe(1);
    expect(results.map(([, passed]) => passed)).toEqual([false, true, true]);
    expect(stdout).toContain('matches [unclosed: Invalid regular expression');
    expect(stdout).not.toContain('internal error');
  });
});

describe('variables in a check', () => {
  test('{{name}} is resolved before the check is read; an unknown one is exit 3', async () => {
    const known = await checks('/json', ['status == {{code}}', 'status != {{code}}'], '@code = 200\n\n');
    expect(known.results).toEqual([
      ['status == {{code}}', true],
      ['status != {{code}}', false],
    ]);
    const unknown = await checks('/json', ['body $.u != {{nosuch}}']);
    expect(unknown.code).toBe(3);
    expect(unknown.stdout + unknown.results.join()).toContain('nosuch');
  });
});

describe('a reference that finds nothing', () => {
  test('its error names the file and the line of the request that asked, as an unknown variable\'s does', async () => {
    const file = tmp.write('refs.http', `### big\nGET ${server.url}/json\n\n### use\nGET ${server.url}/echo?v={{big.response.body.$.nothing}}\n`);
    const result = await runCli(['run', file], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^reqflow: refs\.http:5: \{\{big\.response\.body\.\$\.nothing\}\}: \$\.nothing matches nothing\n/m);
  });
});

describe("restcli's # @expectedBodyField", () => {
  test('compares a 64-bit id exactly, a decimal by its value or quoted as text (JSON.parse made …891 pass on …890)', async () => {
    const cases: Array<[string, boolean]> = [
      ['$.id 12345678901234567890', true],
      ['$.id 12345678901234567891', false],
      ['$.f 1.1', true],
      ['$.f "1.10"', true],
      ['$.f "1.1"', false],
      ['$.item {"price": 10.5, "qty": 2}', true],
      ['$.u hello', true],
    ];
    for (const [spec, passes] of cases) {
      const file = tmp.write('field.http', `# @expectedBodyField ${spec}\nGET ${server.url}/json\n`);
      const result = await runCli(['test', file], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
      expect({ spec, code: result.code }).toEqual({ spec, code: passes ? 0 : 1 });
    }
  });
});
