/**
 * An unknown variable's error names the file and line where the template is written: a header
 * or body line below the request line, a file variable above it. Where the file cannot tell (a
 * value from an environment, a request file read from stdin) the request alone is named. Nothing
 * is sent in any case (a real server on 127.0.0.1 counts).
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let server: Recorder;
const tmp = tempDir('reqflow-unknown-place-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  server = await startRecorder();
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const run = (args: string[], input?: string) => runCli(['run', ...args], { cwd: tmp.dir, env, ...(input === undefined ? {} : { input }) });

test('a header, a body and a file variable: each names its own line, and nothing is sent', async () => {
  const text = `@base = ${server.url}\n@who = {{whoami}}\n\n### first\nGET {{base}}/one\n\n### second\nPOST {{base}}/two\nContent-Type: application/json\nX-Trace: {{traceId}}\n\n{"user": "{{userId}}"}\n\n### third\nGET {{base}}/three?u={{who}}\n`;
  tmp.write('api.http', text);
  const header = await run(['api.http', '-n', 'second', '-e', 'userId=1']);
  expect([header.code, header.stderr.split('\n')[0]]).toEqual([3, 'reqflow: api.http:10: unknown variable "traceId" in request "second"']);
  const body = await run(['api.http', '-n', 'second', '-e', 'traceId=t']);
  expect([body.code, body.stderr.split('\n')[0]]).toEqual([3, 'reqflow: api.http:12: unknown variable "userId" in request "second"']);
  const fileVariable = await run(['api.http', '-n', 'third']);
  expect([fileVariable.code, fileVariable.stderr.split('\n')[0]]).toEqual([3, 'reqflow: api.http:2: unknown variable "whoami" in request "third"']);
  expect(server.received).toEqual([]);
});

test("an unknown name inside a helper's or VS Code's %-template ({{urlencode x}}, {{%x}}) names that template's line", async () => {
  tmp.write('helpers.http', `@q = {{urlencode query}}\n\nGET ${server.url}/x?q={{q}}\nX-One: 1\nX-Two: {{base64 user}}\nX-Three: {{%term}}\n`);
  const inVariable = await run(['helpers.http', '-e', 'user=u', '-e', 'term=t']);
  expect([inVariable.code, inVariable.stderr.split('\n')[0]]).toEqual([3, 'reqflow: helpers.http:1: unknown variable "query" in request "request-1"']);
  const inHelper = await run(['helpers.http', '-e', 'query=q', '-e', 'term=t']);
  expect([inHelper.code, inHelper.stderr.split('\n')[0]]).toEqual([3, 'reqflow: helpers.http:5: unknown variable "user" in request "request-1"']);
  const percent = await run(['helpers.http', '-e', 'query=q', '-e', 'user=u']);
  expect([percent.code, percent.stderr.split('\n')[0]]).toEqual([3, 'reqflow: helpers.http:6: unknown variable "term" in request "request-1"']);
  expect(server.received).toEqual([]);
});

test('a name used by an environment value, and a file from stdin: the request is named, as before', async () => {
  tmp.write('envs/http-client.env.json', JSON.stringify({ dev: { base: '{{host}}/v1' } }));
  tmp.write('envs/api.http', 'GET {{base}}/x\n');
  const fromEnvironment = await runCli(['run', 'api.http', '--env', 'dev'], { cwd: join(tmp.dir, 'envs'), env });
  expect([fromEnvironment.code, fromEnvironment.stderr.split('\n')[0]]).toEqual([3, 'reqflow: unknown variable "host" in request "request-1"']);
  const piped = await run(['-'], `GET ${server.url}/x\nX-A: {{nothing}}\n`);
  expect([piped.code, piped.stderr.split('\n')[0]]).toEqual([3, 'reqflow: unknown variable "nothing" in request "request-1"']);
  expect(server.received).toEqual([]);
});
