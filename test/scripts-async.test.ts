/**
 * httpyac scripts that `await` (issue 27 item 6), end to end with the built CLI against a
 * recording server: what they compute reaches the request; what they cannot do (fetch) fails
 * naming the line and the request is not sent.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let recorder: Recorder;
const tmp = tempDir('reqflow-async-scripts-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  recorder = await startRecorder();
  tmp.write('package.json', '{}');
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

async function reqflow(file: string, text: string) {
  tmp.write(file, text);
  const before = recorder.received.length;
  const result = await runCli(['run', file], { env, cwd: tmp.dir });
  return { ...result, got: recorder.received.slice(before).map((r) => r.url) };
}

test('a global script that awaits sleep and an async helper: its exports reach the request below', async () => {
  const result = await reqflow('awaits.http', `{{\n  await sleep(20);\n  const id = async (n) => 'a' + n;\n  exports.id = await id(1);\n}}\n\n###\nGET ${recorder.url}/x/{{id}}\n`);
  expect([result.code, result.got]).toEqual([0, ['/x/a1']]);
});

test('await fetch(…): fails naming the script line, the request is not sent (exit 2)', async () => {
  const result = await reqflow('fetch.http', `{{\n  const r = await fetch('${recorder.url}/side');\n  exports.id = r.status;\n}}\n\n###\nGET ${recorder.url}/y/{{id}}\n`);
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/fetch\.http:2 \(script line 1\): ReferenceError: fetch is not defined/);
  expect(result.got).toEqual([]);
});
