/**
 * A file of one request runs without the chaining state unless it asks for what the chain does
 * (src/chain/needs-chain.ts): each such form still runs its checks, scripts and captures.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let server: Recorder;
const tmp = tempDir();
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  server = await startRecorder((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"id":7}');
  });
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const forms: Array<[string, string, RegExp]> = [
  ['a ?? check', '?? status == 201', /status == 201/],
  ['a restcli expectation', '', /201/],
  ['a response handler', '> {%\n  client.test("created", () => client.assert(response.status === 201, "not created"));\n%}', /not created/],
  ['a pre-request script', '', /from the script/],
];

test.each(forms)('one request with %s still has it run (and fail here)', async (what, after, expected) => {
  const name = what.replace(/\W+/g, '-');
  const annotations = what === 'a restcli expectation' ? '# @expectedStatusCodes 201\n' : '';
  const pre = what === 'a pre-request script' ? '< {%\n  throw new Error("from the script");\n%}\n' : '';
  tmp.write(`${name}.http`, `${annotations}${pre}GET ${server.url}/one\n\n${after}\n`);
  const result = await runCli(['run', `${name}.http`], { cwd: tmp.dir, env });
  expect(result.code).not.toBe(0);
  expect(result.stdout + result.stderr).toMatch(expected);
});

test('one request without any of them sends once and exits 0', async () => {
  tmp.write('plain.http', `GET ${server.url}/plain\n`);
  const before = server.received.length;
  const result = await runCli(['run', 'plain.http', '-o', 'raw'], { cwd: tmp.dir, env });
  expect(result.code).toBe(0);
  expect(result.stdout).toBe('{"id":7}');
  expect(server.received.length - before).toBe(1);
});
