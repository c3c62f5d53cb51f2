/**
 * JetBrains' pre-request script from a file, `< ./setup.js` above the request line (docs/testing.md):
 * it runs before the request is built. The block splitter took that line for a request line, split
 * the request below it off into a block of its own, and dropped the script unsaid: the request went
 * out without what the script sets, and a missing script file was never noticed.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let recorder: Recorder;
const tmp = tempDir('reqflow-pre-script-files-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  recorder = await startRecorder();
  tmp.write('package.json', '{}');
  tmp.write('setup.js', 'request.variables.set("who", "from-setup-js");\n');
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

test.each([
  ['alone', (url: string) => `< ./setup.js\nGET ${url}/a?who={{who}}\n`],
  ['below ###', (url: string) => `### named\n< ./setup.js\nGET ${url}/a?who={{who}}\n`],
  ['below # @name', (url: string) => `# @name named\n< ./setup.js\nGET ${url}/a?who={{who}}\n`],
  ['in the second request of a file', (url: string) => `GET ${url}/first\n\n###\n< ./setup.js\nGET ${url}/a?who={{who}}\n`],
])('< ./setup.js above the request line (%s) runs before the request', async (_where, text) => {
  const file = tmp.write(`req-${_where.replace(/\W/g, '-')}.http`, text(recorder.url));
  const before = recorder.received.length;
  const result = await runCli(['run', file], { env });
  expect(result.stderr).not.toContain('reqflow:');
  expect(result.code).toBe(0);
  expect(recorder.received.slice(before).map((r) => r.url).at(-1)).toBe('/a?who=from-setup-js');
});

test('a pre-request script file that is missing is exit 2 naming it and its line; nothing is sent', async () => {
  const file = tmp.write('missing.http', `< ./missing.js\nGET ${recorder.url}/never\n`);
  const before = recorder.received.length;
  const result = await runCli(['run', file], { env });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/^reqflow: \S*missing\.http:1: cannot read script \.\/missing\.js: no such file$/m);
  expect(recorder.received.length).toBe(before);
});
