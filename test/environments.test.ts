/**
 * Environments of the `.http` tools, picked with --env: JetBrains' public and private env
 * files (found above the request file), $shared, VS Code's settings.json (JSONC, {{$shared x}}),
 * httpyac's NAME.env; precedence against -e and profiles; private values masked.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let recorder: Recorder;
let url = '';
const tmp = tempDir('reqflow-envs-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  recorder = await startRecorder();
  url = recorder.url;
  // A project: the env files at its root, the request file two folders down.
  tmp.write('jb/package.json', '{}');
  tmp.write('jb/http-client.env.json', JSON.stringify({ $shared: { host: url, team: 'shared-team' }, dev: { stage: 'dev', team: 'dev-team', SSLConfiguration: { clientCertificate: 'x.pem' } }, prod: { stage: 'prod' } }));
  tmp.write('jb/http-client.private.env.json', JSON.stringify({ dev: { apiSecret: 'private-secret-42', stage: 'dev-private' } }));
  tmp.write('jb/api/users/get.http', 'GET {{host}}/users?stage={{stage}}\nX-Team: {{team}}\nX-Secret: {{apiSecret}}\nX-Key: {{apiSecret}}\n');
  tmp.write('vs/.git/HEAD', 'ref: x');
  tmp.write('vs/.vscode/settings.json', `{\n  // REST Client environments\n  "rest-client.environmentVariables": {\n    "$shared": { "version": "v2", },\n    "local": { "base": "${url}/{{$shared version}}", },\n  },\n}\n`);
  tmp.write('vs/req.http', 'GET {{base}}/things\n');
  tmp.write('yac/package.json', '{}');
  tmp.write('yac/staging.env', 'base=' + url + '\nlabel="from dotenv"\n');
  tmp.write('yac/req.http', 'GET {{base}}/yac?label={{%label}}\n');
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

async function send(file: string, args: string[]) {
  const before = recorder.received.length;
  const result = await runCli(['run', join(tmp.dir, file), ...args], { env });
  return { ...result, got: recorder.received.slice(before) };
}

test('JetBrains: the env files above the request file, $shared under the environment, private over public', async () => {
  const { code, got } = await send('jb/api/users/get.http', ['--env', 'dev']);
  expect(code).toBe(0);
  expect(got[0]?.url).toBe('/users?stage=dev-private');
  expect(got[0]?.headers['x-team']).toBe('dev-team');
  expect(got[0]?.headers['x-secret']).toBe('private-secret-42');
});

test('private values are masked in -v; -e still wins over the environment', async () => {
  const result = await send('jb/api/users/get.http', ['--env', 'dev', '-v', '-e', 'team=cli-team']);
  expect(result.code).toBe(0);
  expect(result.got[0]?.headers['x-team']).toBe('cli-team');
  expect(result.stderr).not.toContain('private-secret-42');
  expect(result.stderr).toContain('X-Secret: •••');
});

test('an environment no file defines is exit 2 listing those that exist; nothing is sent', async () => {
  const result = await send('jb/api/users/get.http', ['--env', 'qa']);
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/^reqflow: no environment "qa" in .*http-client\.env\.json.*\nhint: environments there: dev, prod$/m);
  expect(result.got).toEqual([]);
});

test('REQFLOW_ENV picks the environment too', async () => {
  const before = recorder.received.length;
  const result = await runCli(['run', join(tmp.dir, 'jb/api/users/get.http')], { env: { ...env, REQFLOW_ENV: 'prod' } });
  expect(result.code).toBe(3); // prod has no apiSecret: an unknown variable, nothing sent
  expect(recorder.received.length).toBe(before);
});

test('VS Code: .vscode/settings.json with comments and trailing commas, {{$shared x}}', async () => {
  const { code, got } = await send('vs/req.http', ['--env', 'local']);
  expect(code).toBe(0);
  expect(got[0]?.url).toBe('/v2/things');
});

test('httpyac: NAME.env beside the request file', async () => {
  const { code, got } = await send('yac/req.http', ['--env', 'staging']);
  expect(code).toBe(0);
  expect(got[0]?.url).toBe('/yac?label=from%20dotenv');
});

test('a broken env file is exit 2 naming the file, line and column', async () => {
  tmp.write('broken/package.json', '{}');
  tmp.write('broken/http-client.env.json', '{\n  "dev": { "a": 1,, }\n}\n');
  tmp.write('broken/r.http', 'GET http://127.0.0.1:1/\n');
  const result = await send('broken/r.http', ['--env', 'dev']);
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/http-client\.env\.json:2:\d+: not valid JSON/);
});
