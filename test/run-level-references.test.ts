/**
 * A reference to a request (`{{login.response.body.$.name}}`) written outside the request file's
 * own texts: in an `--env` value, in a profile variable, in a `<@ file` the body includes. The
 * request it names ran earlier in the file; its exchange must have been kept for the later one
 * (it was not: "request "login" has no response to read"). Against a real server on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let server: Recorder;
const tmp = tempDir('reqflow-run-level-refs-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  server = await startRecorder((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(req.url === '/login' ? '{"name":"Ada","id":7}' : '{"ok":true}');
  });
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

/** The requests `run` sent, from the recorder, for one run of `file` in `folder`. */
async function sent(folder: string, file: string, ...args: string[]) {
  const before = server.received.length;
  const result = await runCli(['run', join(tmp.dir, folder, file), ...args], { cwd: join(tmp.dir, folder), env });
  return { result, requests: server.received.slice(before).map((request) => ({ url: request.url, body: request.body.toString('utf8') })) };
}

const LOGIN = (): string => `### login\nGET ${server.url}/login\n\n`;

describe('references from outside the request texts', () => {
  test('an --env value that names an earlier request', async () => {
    tmp.write('env/http-client.env.json', JSON.stringify({ dev: { who: '{{login.response.body.$.name}}' } }));
    tmp.write('env/api.http', `${LOGIN()}### use\nGET ${server.url}/hello?who={{who}}\n`);
    const { result, requests } = await sent('env', 'api.http', '--env', 'dev');
    expect(result.stderr).not.toMatch(/no response to read/);
    expect([result.code, requests.map((request) => request.url)]).toEqual([0, ['/login', '/hello?who=Ada']]);
  });

  test('a profile variable that names an earlier request', async () => {
    tmp.write('profile/.profiles.json', JSON.stringify([{ name: 'default', variables: { userId: '{{login.response.body.$.id}}' } }]));
    tmp.write('profile/api.http', `${LOGIN()}### use\nGET ${server.url}/users/{{userId}}\n`);
    const { result, requests } = await sent('profile', 'api.http');
    expect([result.code, requests.map((request) => request.url)]).toEqual([0, ['/login', '/users/7']]);
  });

  test('a <@ file whose text names an earlier request', async () => {
    tmp.write('include/body.json', '{"greeting":"hello {{login.response.body.$.name}}"}');
    tmp.write('include/api.http', `${LOGIN()}### use\nPOST ${server.url}/greet\nContent-Type: application/json\n\n<@ ./body.json\n`);
    const { result, requests } = await sent('include', 'api.http');
    expect([result.code, requests.at(-1)]).toEqual([0, { url: '/greet', body: '{"greeting":"hello Ada"}' }]);
  });

  test('a <@ file named through a variable (not read ahead): every named request is kept', async () => {
    tmp.write('include-var/bodies/body.json', '{"id":{{login.response.body.$.id}}}');
    tmp.write('include-var/api.http', `@dir = ./bodies\n\n${LOGIN()}### use\nPOST ${server.url}/items\nContent-Type: application/json\n\n<@ {{dir}}/body.json\n`);
    const { result, requests } = await sent('include-var', 'api.http');
    expect([result.code, requests.at(-1)]).toEqual([0, { url: '/items', body: '{"id":7}' }]);
  });

  test('a <@ file that is not there yet fails when sent, naming it, after the requests before it ran', async () => {
    tmp.write('include-missing/api.http', `${LOGIN()}### use\nPOST ${server.url}/items\nContent-Type: application/json\n\n<@ ./missing.json\n`);
    const { result, requests } = await sent('include-missing', 'api.http');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot read the body file \.\/missing\.json .*no such file/);
    expect(requests.map((request) => request.url)).toEqual(['/login']);
  });
});
