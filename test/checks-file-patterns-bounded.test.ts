/**
 * A request file's regular expressions and JSONPath filters run on reqflow's main thread, over a
 * response: one that backtracks without end (`^(a|a)*$` on 40 `a` and a `!`) hung `reqflow test`
 * and `run` for hours. Each now runs within the script time limit (`--script-timeout`), and one
 * past it is a failed check, or a capture's error, naming the line — never a hang. The runs are
 * bounded by runCli's timeout, so a regression fails here rather than hanging CI.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

const tmp = tempDir('reqflow-file-patterns-');
const BODY = `${'a'.repeat(40)}!`;
let server: Recorder;

beforeAll(async () => {
  server = await startRecorder((req, res) => {
    const json = req.url === '/json';
    res.writeHead(200, { 'content-type': json ? 'application/json' : 'text/plain' });
    res.end(json ? JSON.stringify({ names: [BODY] }) : BODY);
  });
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const run = (name: string, text: string, command = 'test') => runCli([command, tmp.write(name, text), '--script-timeout', '300'], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') }, timeoutMs: 30_000 });
const PAST = /ran past its time limit of 300 ms/;

describe('a pattern that backtracks without end', () => {
  test('`?? body matches` and `# @expectedBodyPattern` are failed checks naming their line; the other checks still run', async () => {
    const result = await run('checks.http', `GET ${server.url}/text\n?? body matches ^(a|a)*$\n?? status == 200\n\n###\n# @expectedBodyPattern ^(.|.)*QQQ$\nGET ${server.url}/text\n`);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ body matches \^\(a\|a\)\*\$ \(checks\.http:2\)\n\s+matches \^\(a\|a\)\*\$: ran past its time limit of 300 ms/);
    expect(result.stdout).toMatch(/✗ expectedBodyPattern \(checks\.http:7\)\n\s+\/\^\(\.\|\.\)\*QQQ\$\/: ran past/);
    expect(result.stdout).toContain('1/3 checks passed');
  }, 40_000);

  test('`reqflow run` too: a failed check (exit 1), not a hang', async () => {
    const result = await run('run.http', `GET ${server.url}/text\n?? body matches ^(a|a)*$\n`, 'run');
    expect(result.signal).toBeNull();
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toMatch(PAST);
  }, 40_000);

  test('a JSONPath filter with such a pattern is a failed check; a regex capture is an error naming the capture', async () => {
    const checks = await run('jsonpath.http', `GET ${server.url}/json\n?? body $.names[?(@.match(/^(a|a)*$/))] exists\n`);
    expect(checks.signal).toBeNull();
    expect(checks.code).toBe(1);
    expect(checks.stdout).toMatch(/JSONPath \$\.names\[\?\(@\.match\(\/\^\(a\|a\)\*\$\/\)\)\]: ran past its time limit of 300 ms/);
    const capture = await run('capture.http', `# @capture c = regex:^(a|a)*$\nGET ${server.url}/text\n`);
    expect(capture.signal).toBeNull();
    expect(capture.code).toBe(2);
    expect(capture.stdout + capture.stderr).toMatch(/# @capture c \(.*capture\.http:1\): regex:\^\(a\|a\)\*\$: ran past its time limit of 300 ms/);
  }, 40_000);

  test('`# @expectedBodyField` with such a JSONPath is a failed check saying it ran past the limit, not "got nothing"', async () => {
    const result = await run('field.http', `# @expectedBodyField $.names[?(@.match(/^(a|a)*$/))] x\nGET ${server.url}/json\n`);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ expectedBodyField \$\.names\[.*\(field\.http:2\)\n\s+JSONPath \$\.names\[\?\(@\.match\(\/\^\(a\|a\)\*\$\/\)\)\]: ran past its time limit of 300 ms/);
    expect(result.stdout).not.toContain('got nothing');
  }, 40_000);

  test('a JSONPath filter in a reference to a response stops at --script-timeout too, not the default 5 s', async () => {
    const result = await run('reference.http', `# @name j\nGET ${server.url}/json\n\n###\nGET ${server.url}/x?v={{j.response.body.$.names[?(@.match(/^(a|a)*$/))]}}\n`, 'run');
    expect(result.signal).toBeNull();
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(PAST);
  }, 40_000);

  test('an ordinary pattern still matches, and captures its group', async () => {
    const result = await run('plain.http', `# @capture first = regex:^(a{3})\nGET ${server.url}/text\n?? body matches ^a+!$\n\n###\n# @expectedBodyPattern a{40}!\nGET ${server.url}/text?{{first}}\n`);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('2/2 checks passed');
    expect(server.received.at(-1)?.url).toBe('/text?aaa');
  }, 40_000);
});
