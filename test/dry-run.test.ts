/**
 * `reqflow run --dry-run`: each request printed as it would go out — variables resolved, the
 * `.http` tools' constructs applied, auth headers masked — and nothing reaches the server.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let recorder: Recorder;
const tmp = tempDir('reqflow-dry-');
beforeAll(async () => {
  recorder = await startRecorder();
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

test('the resolved requests, secrets masked, nothing sent', async () => {
  tmp.write('body.json', '{"from": "a file"}\n');
  tmp.write(
    'api.http',
    `@host = ${recorder.url}
@user = ada

### create
POST {{host}}/users?q={{%user}}
Authorization: Basic {{user}} s3cret-pass
Content-Type: application/json

< ./body.json

### search
GET {{host}}/search
  ?name={{user}}
  &limit=5
X-Api-Key: {{apiKey}}
`,
  );
  const result = await runCli(['run', join(tmp.dir, 'api.http'), '--dry-run', '-e', 'apiKey=k-live-123456'], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
  expect(result.code).toBe(0);
  expect(result.stderr).toBe('');
  expect(result.stdout).toBe(
    [
      '### create',
      `POST ${recorder.url}/users?q=ada`,
      'Authorization: •••',
      'Content-Type: application/json',
      '',
      '{"from": "a file"}',
      '',
      '### search',
      `GET ${recorder.url}/search?name=ada&limit=5`,
      'X-Api-Key: •••',
      '',
      '',
    ].join('\n'),
  );
  expect(recorder.received).toHaveLength(0);
});

test('a value from another request\'s response is shown as written (it exists only once that one ran); still nothing sent', async () => {
  tmp.write('chain.http', `# @name login\nPOST ${recorder.url}/login\n\n###\nGET ${recorder.url}/me?t={{login.response.body.$.token}}\nX-User: {{login.data.user}}\n`);
  const result = await runCli(['run', join(tmp.dir, 'chain.http'), '--dry-run'], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout).toBe(`### login\nPOST ${recorder.url}/login\n\n### request-2\nGET ${recorder.url}/me?t={{login.response.body.$.token}}\nX-User: {{login.data.user}}\n\n`);
  expect(recorder.received).toHaveLength(0);
});
