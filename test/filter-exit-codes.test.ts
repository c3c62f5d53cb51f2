/**
 * A filter's two failures have two exit codes (docs/output.md): an expression that is not JMESPath
 * is a usage error found before anything is sent (exit 2), one that compiles but fails on the
 * response — a type error, past `--script-timeout` — is "a filter could not be applied to the
 * response" (exit 1), as a filter on an HTML page is. Such a failure was exit 2 ("the request was
 * not sent") although the request had been sent and answered. Every front end that filters:
 * `run` (`--filter`, `# @filter`, `-o json`), `send` and `test`.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { parseRecords } from './helpers/records.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

const tmp = tempDir('reqflow-filter-exit-');
let server: Recorder;

beforeAll(async () => {
  server = await startRecorder((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: 'ada', items: [1, 2, 3] }));
  });
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const cli = (args: string[]) => runCli(args, { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') }, timeoutMs: 30_000 });
/** Runs `args` and says how many requests the server received meanwhile. */
async function sent(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; requests: number }> {
  const before = server.received.length;
  const result = await cli(args);
  return { ...result, requests: server.received.length - before };
}
const TYPE_ERROR = /JMESPath filter "abs\(name\)" failed: Invalid type: abs\(\) expected argument 1 to be type \(number\)/;

describe('a filter that is not JMESPath: exit 2, nothing sent', () => {
  test('--filter on run and send, # @filter on test', async () => {
    const file = tmp.write('plain.http', `GET ${server.url}/a\n`);
    for (const args of [['run', file, '--filter', 'items[?'], ['send', `${server.url}/a`, '--filter', 'items[?'], ['test', tmp.write('bad.http', `# @filter items[?\nGET ${server.url}/a\n`)]]) {
      const result = await sent(args);
      expect({ args, code: result.code, requests: result.requests }).toEqual({ args, code: 2, requests: 0 });
      expect(result.stdout + result.stderr).toMatch(/invalid JMESPath filter "items\[\?"/);
    }
  }, 60_000);

  test('a function JMESPath does not have is known before sending too', async () => {
    const result = await sent(['run', tmp.write('typo.http', `GET ${server.url}/a\n`), '--filter', 'lenght(items)']);
    expect({ code: result.code, requests: result.requests }).toEqual({ code: 2, requests: 0 });
    expect(result.stderr).toMatch(/invalid JMESPath filter "lenght\(items\)" \(--filter\): unknown function lenght\(\)/);
  }, 60_000);
});

describe('a filter that fails on the response: exit 1, the request sent, the filter named', () => {
  test('run --filter, and its -o json error record', async () => {
    const file = tmp.write('one.http', `GET ${server.url}/b\n`);
    const result = await sent(['run', file, '--filter', 'abs(name)']);
    expect(result.code).toBe(1);
    expect(result.requests).toBe(1);
    expect(result.stderr).toMatch(TYPE_ERROR);
    const json = await cli(['run', file, '--filter', 'abs(name)', '-o', 'json']);
    expect(json.code).toBe(1);
    const [record] = parseRecords(json.stdout);
    expect(record).toMatchObject({ type: 'error', error: { exitCode: 1 } });
  }, 60_000);

  test('send --filter and run with # @filter', async () => {
    const viaSend = await sent(['send', `${server.url}/c`, '--filter', 'abs(name)']);
    expect(viaSend.code).toBe(1);
    expect(viaSend.requests).toBe(1);
    expect(viaSend.stderr).toMatch(TYPE_ERROR);
    const annotated = await sent(['run', tmp.write('annotated.http', `# @filter abs(name)\nGET ${server.url}/d\n`)]);
    expect(annotated.code).toBe(1);
    expect(annotated.stderr).toMatch(TYPE_ERROR);
  }, 60_000);

  test('test: the request is an error with the filter named, the run exit 1', async () => {
    const result = await sent(['test', tmp.write('checked.http', `# @filter abs(name)\nGET ${server.url}/e\n?? status == 200\n`)]);
    expect(result.code).toBe(1);
    expect(result.requests).toBe(1);
    expect(result.stdout + result.stderr).toMatch(TYPE_ERROR);
  }, 60_000);
});
