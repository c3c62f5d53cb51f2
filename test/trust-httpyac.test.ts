/**
 * httpyac's code in a request's project (docs/trust.md): a script that `require`s Node's modules
 * or the project's packages, and the JavaScript configuration (`.httpyac.js`). Untrusted, each is
 * refused — exit 2, the file, the remedy, nothing sent; trusted, what httpyac would send goes out.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runCli, tempDir, type CliResult } from './helpers/cli.js';
import { startRecorder, type Recorded, type Recorder } from './helpers/recorder.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'dialect');
const tmp = tempDir('reqflow-trust-httpyac-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state'), REQFLOW_CONFIG_DIR: join(tmp.dir, 'config') };
let server: Recorder;

beforeAll(async () => {
  server = await startRecorder();
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

async function run(dir: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<CliResult & { requests: Recorded[] }> {
  const before = server.received.length;
  const result = await runCli(['run', ...args, '--no-extract'], { env: { ...env, ...extraEnv }, cwd: dir });
  return { ...result, requests: server.received.slice(before) };
}

/** A project (package.json marks it) with the script fixture and the file it reads. */
function scriptProject(name: string): string {
  const dir = join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{}');
  for (const file of ['require.http', 'require-document.txt']) cpSync(join(FIXTURES, 'httpyac', file), join(dir, file));
  return dir;
}

describe('an httpyac script that requires modules', () => {
  const args = (): string[] => ['require.http', '-e', `host=${server.url}`, '-e', 'filePath=require-document.txt'];

  test('untrusted: exit 2 naming the script line and the remedy, nothing sent', async () => {
    const dir = scriptProject('script-untrusted');
    const { code, stderr, requests } = await run(dir, args());
    expect(code).toBe(2);
    expect(stderr).toContain('require.http:6 (script line 1): Error: require("node:fs") runs a program; `reqflow trust` this project or pass --trust');
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(requests).toEqual([]);
  });

  test('trusted: the file is read and sent as httpyac sends it', async () => {
    const dir = scriptProject('script-trusted');
    expect((await runCli(['trust'], { env, cwd: dir })).code).toBe(0);
    const { code, stderr, requests } = await run(dir, args());
    expect(stderr).not.toContain('reqflow:');
    expect(code).toBe(0);
    expect(requests).toHaveLength(1);
    expect(JSON.parse(requests[0]?.body.toString('utf8') ?? '')).toEqual({
      Base64EncodedData: Buffer.from('the document, line 1\nline 2\n').toString('base64'),
      Filename: 'require-document.txt',
    });
  });

  test("--trust: a package from the project's node_modules, found from the request file's folder", async () => {
    const dir = scriptProject('script-package');
    mkdirSync(join(dir, 'node_modules', 'greeting'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'greeting', 'index.js'), "module.exports = (name) => 'hello ' + name;\n");
    mkdirSync(join(dir, 'requests'));
    writeFileSync(join(dir, 'requests', 'package.http'), "{{\n  exports.greeting = require('greeting')('ada');\n}}\n\nPOST {{host}}/httpyac/package\n\n{{greeting}}\n");
    const trusted = await run(dir, ['requests/package.http', '-e', `host=${server.url}`, '--trust']);
    expect(trusted.code).toBe(0);
    expect(trusted.requests.map((r) => r.body.toString('utf8'))).toEqual(['hello ada']);
    // The flag trusted that invocation only.
    const again = await run(dir, ['requests/package.http', '-e', `host=${server.url}`]);
    expect(again.code).toBe(2);
    expect(again.requests).toEqual([]);
  });

  test("a script outside the trusted project whose folder it is run from gets no require", async () => {
    const host = scriptProject('script-host');
    writeFileSync(join(host, '.profiles.json'), '[]');
    expect((await runCli(['trust'], { env, cwd: host })).code).toBe(0);
    const stray = join(tmp.dir, 'downloads');
    mkdirSync(stray);
    for (const file of ['require.http', 'require-document.txt']) cpSync(join(FIXTURES, 'httpyac', file), join(stray, file));
    const { code, stderr, requests } = await run(host, [join(stray, 'require.http'), '-e', `host=${server.url}`, '-e', 'filePath=require-document.txt']);
    expect(code).toBe(2);
    expect(stderr).toContain('require("node:fs") runs a program');
    expect(requests).toEqual([]);
  });

  test("a JavaScript config outside the trusted project whose folder the request is run from is not run", async () => {
    const host = scriptProject('config-host');
    writeFileSync(join(host, '.profiles.json'), '[]');
    expect((await runCli(['trust'], { env, cwd: host })).code).toBe(0);
    const stray = join(tmp.dir, 'downloads-config');
    cpSync(join(FIXTURES, 'httpyac-js-config'), stray, { recursive: true });
    const { code, stderr, requests } = await run(host, [join(stray, 'api', 'http.rest'), '--env', 'dev'], { RECORDER_URL: server.url });
    expect(code).toBe(2);
    expect(stderr).toContain("httpyac's JavaScript configuration runs a program");
    expect(requests).toEqual([]);
  });

  test('trusted, the script time limit still holds', async () => {
    const dir = scriptProject('script-timeout');
    writeFileSync(join(dir, 'spin.http'), "{{\n  require('node:path');\n  for (;;) {}\n}}\n\nGET {{host}}/httpyac/spin\n");
    const { code, stderr, requests } = await run(dir, ['spin.http', '-e', `host=${server.url}`, '--trust', '--script-timeout', '300']);
    expect(code).toBe(2);
    expect(stderr).toContain('did not finish within 300 ms');
    expect(requests).toEqual([]);
  });
});

describe("httpyac's JavaScript configuration", () => {
  /** The xianbing-like project: .httpyac.js (environments, defaultHeaders) beside a .httpyac.json that httpyac then ignores. */
  function configProject(name: string): string {
    const dir = join(tmp.dir, name);
    cpSync(join(FIXTURES, 'httpyac-js-config'), dir, { recursive: true });
    return dir;
  }
  const recorderEnv = (): NodeJS.ProcessEnv => ({ RECORDER_URL: server.url });

  test('untrusted, with --env: exit 2 naming the config and the remedy, nothing sent', async () => {
    const dir = configProject('config-untrusted');
    const { code, stderr, requests } = await run(dir, ['api/http.rest', '--env', 'dev'], recorderEnv());
    expect(code).toBe(2);
    expect(stderr).toContain(".httpyac.js: httpyac's JavaScript configuration runs a program; `reqflow trust` this project or pass --trust");
    expect(requests).toEqual([]);
  });

  test('untrusted, without --env, a config of settings and hooks only (as luisosuna/forkedErick\'s): not run, said once; the run goes on with what -e gives', async () => {
    const dir = configProject('config-untrusted-plain');
    writeFileSync(join(dir, '.httpyac.js'), "module.exports = {\n  log: { level: 'warn' },\n  cookieJarEnabled: true,\n  configureHooks(api) { api.hooks.responseLogging.addHook('x', () => undefined); },\n};\n");
    const { code, stderr, requests } = await run(dir, ['api/http.rest', '-n', 'status', '-e', `host=${server.url}/other`], recorderEnv());
    expect(code).toBe(0);
    expect(stderr).toContain(".httpyac.js: httpyac's JavaScript configuration is not run (it runs a program); `reqflow trust` this project or pass --trust");
    expect(requests.map((r) => r.url)).toEqual(['/other/status']);
  });

  // A real project's config (mlongano/rest-task-api-from-express-to-hono) sets `Content-Type` for every request: sent
  // without it, with a warning, 26 of its 58 requests went out other than httpyac sends them.
  test.each([
    ['defaultHeaders', null],
    ['$shared', "module.exports = { environments: { $shared: { host: 'http://127.0.0.1:1' } } };\n"],
    ['$default', "module.exports = { environments: { $default: { host: 'http://127.0.0.1:1' } } };\n"],
  ])('untrusted, without --env, a config that names %s (what httpyac takes from it on every run): exit 2 naming it and the remedy, nothing sent', async (what, text) => {
    const dir = configProject(`config-untrusted-every-run-${what.replace('$', '')}`);
    if (text !== null) writeFileSync(join(dir, '.httpyac.js'), text);
    const { code, stderr, requests } = await run(dir, ['api/http.rest', '-n', 'status', '-e', `host=${server.url}/other`], recorderEnv());
    expect(code).toBe(2);
    expect(stderr).toContain(".httpyac.js: httpyac's JavaScript configuration runs a program; `reqflow trust` this project or pass --trust");
    expect(requests).toEqual([]);
  });

  test('trusted, without --env: its default headers go with every request', async () => {
    const dir = configProject('config-trusted-plain');
    const { code, requests } = await run(dir, ['api/http.rest', '-n', 'status', '-e', `host=${server.url}/other`, '--trust'], recorderEnv());
    expect(code).toBe(0);
    expect(requests.map((r) => [r.url, r.headers['x-xb-test']])).toEqual([['/other/status', '1']]);
  });

  test("trusted: its environment's host and its default headers, as httpyac sends them (its .httpyac.json unread)", async () => {
    const dir = configProject('config-trusted');
    expect((await runCli(['trust', 'api'], { env, cwd: dir })).code).toBe(0);
    const { code, stderr, requests } = await run(dir, ['api/http.rest', '--env', 'dev'], recorderEnv());
    expect(stderr).not.toContain('reqflow:');
    expect(code).toBe(0);
    expect(requests.map((r) => [r.method, r.url, r.headers['x-xb-test'], r.body.toString('utf8')])).toEqual([
      ['GET', '/api/status', '1', ''],
      ['POST', '/api/auth/login', '1', '{\n  "email": "a@example.com",\n  "code": "PASS"\n}'],
    ]);
  });

  test('trusted, a config that throws: exit 2 naming it, one line, nothing sent', async () => {
    const dir = configProject('config-throws');
    writeFileSync(join(dir, '.httpyac.js'), "throw new Error('no config today');\n");
    const { code, stderr, requests } = await run(dir, ['api/http.rest', '--env', 'dev', '--trust'], recorderEnv());
    expect(code).toBe(2);
    expect(stderr).toContain(".httpyac.js: httpyac's configuration failed: no config today");
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(requests).toEqual([]);
  });
});
