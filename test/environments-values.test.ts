/**
 * Environment values as the other tools write them (docs/environments.md, issue 27 item 3), end
 * to end with the built CLI against a recording server — what was sent, through `run`, `test`
 * and `--dry-run`: objects and arrays read by dotted names and refused only where a request
 * uses one whole (JSON text in httpyac's files, which define it); JetBrains files with comments;
 * kulala's and rest.nvim's `.env` values as variables; resterm's `resterm.env.json`.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let recorder: Recorder;
const tmp = tempDir('reqflow-env-values-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  recorder = await startRecorder();
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

/** stderr without the pretty output's status lines. */
const statusLess = (stderr: string): string => stderr.replace(/^HTTP\/1\.1 .*\n/gm, '');

async function reqflow(args: string[], cwd: string, extraEnv: NodeJS.ProcessEnv = {}) {
  const before = recorder.received.length;
  const result = await runCli(args, { env: { ...env, ...extraEnv }, cwd: join(tmp.dir, cwd) });
  return { ...result, got: recorder.received.slice(before) };
}

describe('objects and arrays in http-client.env.json', () => {
  beforeAll(() => {
    tmp.write('jb/package.json', '{}');
    // As JetBrains' editor accepts it: comments and trailing commas.
    tmp.write('jb/http-client.env.json', `{
  // the API under test
  "dev": {
    "base": { "url": "${recorder.url}/jb", "version": 2 },
    "plans": { "addons": ["sms", "mail"] },
    "features": ["a", "b"],
    "nothing": null,
  },
}
`);
    tmp.write('jb/uses.http', 'GET {{base.url}}/v{{base.version}}?addon={{plans.addons[1]}}\n\n###\n\nPOST {{base.url}}/whole\nContent-Type: application/json\n\n{"features": {{features}}}\n');
    tmp.write('jb/unused.http', '# @name unused\nGET {{base.url}}/unused\n');
  });

  test('dotted names read into objects and arrays; an object no request uses is fine', async () => {
    const result = await reqflow(['run', 'unused.http', '--env', 'dev'], 'jb');
    expect([result.code, statusLess(result.stderr)]).toEqual([0, '']);
    expect(result.got.map((r) => r.url)).toEqual(['/jb/unused']);
  });

  test('an array used whole: exit 2 naming the variable, the environment file and the request line; that request is not sent, the others are', async () => {
    const result = await reqflow(['run', 'uses.http', '--env', 'dev'], 'jb');
    expect(result.code).toBe(2);
    expect(result.got.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /jb/v2?addon=mail']);
    expect(statusLess(result.stderr)).toContain(`${join(tmp.dir, 'jb', 'uses.http')}:5: {{features}} in request "request-2" is an array (dev.features in ${join(tmp.dir, 'jb', 'http-client.env.json')}): it has no text form to send\nhint: use one of its values, such as {{features[0]}}\n`);
  });

  test('the same through reqflow test and --dry-run', async () => {
    const tested = await reqflow(['test', 'uses.http', '--env', 'dev'], 'jb');
    expect(tested.code).toBe(2);
    expect(tested.stdout + tested.stderr).toMatch(/uses\.http:5: \{\{features\}\} in request "request-2" is an array/);
    const dry = await reqflow(['run', 'uses.http', '--env', 'dev', '--dry-run'], 'jb');
    expect(dry.code).toBe(2);
    expect(dry.stdout).toContain(`GET ${recorder.url}/jb/v2?addon=mail`);
    expect(dry.stderr).toMatch(/uses\.http:5: \{\{features\}\} .* is an array/);
    expect(dry.got).toEqual([]);
  });

  test('null used is refused the same way; -e gives the name a value and wins', async () => {
    tmp.write('jb/null.http', 'GET {{base.url}}/null?x={{nothing}}\n');
    const refused = await reqflow(['run', 'null.http', '--env', 'dev'], 'jb');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^reqflow: \S*null\.http:1: \{\{nothing\}\} in request "request-1" is null \(dev\.nothing in .*http-client\.env\.json\)/m);
    const given = await reqflow(['run', 'null.http', '--env', 'dev', '-e', 'nothing=given'], 'jb');
    expect(given.code).toBe(0);
    expect(given.got.map((r) => r.url)).toEqual(['/jb/null?x=given']);
  });

  test('a file that is not JSON even with comments is exit 2 naming the file, line and column', async () => {
    tmp.write('broken/package.json', '{}');
    tmp.write('broken/http-client.env.json', '{\n  // fine\n  "dev": { "a": 1 "b": 2 }\n}\n');
    tmp.write('broken/r.http', 'GET http://127.0.0.1:1/\n');
    const result = await reqflow(['run', 'r.http', '--env', 'dev'], 'broken');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/broken\/http-client\.env\.json:3:19: not valid JSON with comments \(CommaExpected\)/);
  });
});

describe("httpyac's .httpyac.json: an object used whole is its JSON text, as httpyac sends it", () => {
  test('{{filter}} is compact JSON; {{filter.tags[0]}} one value', async () => {
    tmp.write('yac/package.json', '{}');
    tmp.write('yac/.httpyac.json', JSON.stringify({ environments: { dev: { api: `${recorder.url}/yac`, filter: { tags: ['x', 'y'], limit: 5 } } } }));
    tmp.write('yac/r.http', 'POST {{api}}?first={{filter.tags[0]}}\nContent-Type: application/json\n\n{"filter": {{filter}}}\n');
    const result = await reqflow(['run', 'r.http', '--env', 'dev'], 'yac');
    expect(result.code).toBe(0);
    expect(result.got[0]?.url).toBe('/yac?first=x');
    expect(result.got[0]?.body.toString()).toBe('{"filter": {"tags":["x","y"],"limit":5}}');
  });
});

describe("kulala's and rest.nvim's .env: its values are variables, below every other source", () => {
  beforeAll(() => {
    tmp.write('dot/package.json', '{}');
    tmp.write('dot/.env', `API=${recorder.url}/dot\nWHO=from-dotenv\nTEAM=from-dotenv\n`);
    tmp.write('dot/api/.env', 'WHO=from-nearer-dotenv\n');
    tmp.write('dot/api/r.http', 'GET {{API}}/r?who={{WHO}}&team={{TEAM}}\n');
  });

  test('without --env: {{NAME}} from the .env files, the nearer winning (was: unknown variable)', async () => {
    const result = await reqflow(['run', 'r.http'], 'dot/api');
    expect([result.code, statusLess(result.stderr)]).toEqual([0, '']);
    expect(result.got.map((r) => r.url)).toEqual(['/dot/r?who=from-nearer-dotenv&team=from-dotenv']);
  });

  test('an environment file and the profile win over the .env (kulala: http-client.env.json over .env)', async () => {
    tmp.write('dot/http-client.env.json', JSON.stringify({ dev: { WHO: 'from-env-json' } }));
    tmp.write('dot/.profiles.json', JSON.stringify([{ name: 'default', variables: { TEAM: 'from-profile' } }]));
    const result = await reqflow(['run', 'r.http', '--env', 'dev'], 'dot/api');
    expect(result.code).toBe(0);
    expect(result.got.map((r) => r.url)).toEqual(['/dot/r?who=from-env-json&team=from-profile']);
    const dry = await reqflow(['run', 'r.http', '--env', 'dev', '--dry-run'], 'dot/api');
    expect(dry.stdout).toContain(`GET ${recorder.url}/dot/r?who=from-env-json&team=from-profile`);
    const tested = await reqflow(['test', 'r.http', '--env', 'dev'], 'dot/api');
    expect(tested.code).toBe(0);
  });
});

describe("resterm's resterm.env.json", () => {
  test('$shared and the environment, nested objects read by dotted names ({{base.url}}, {{auth.token}})', async () => {
    tmp.write('rt/.git/HEAD', 'ref: x\n');
    tmp.write('rt/resterm.env.json', JSON.stringify({
      $shared: { auth: { token: 'shared-token' }, api: { version: 'v2' } },
      dev: { base: { url: `${recorder.url}/rt` }, auth: { token: 'dev-token' } },
    }));
    tmp.write('rt/r.http', 'GET {{base.url}}/{{api.version}}\nX-Token: {{auth.token}}\n');
    const result = await reqflow(['run', 'r.http', '--env', 'dev'], 'rt');
    expect(result.code).toBe(0);
    expect(result.got[0]?.url).toBe('/rt/v2');
    expect(result.got[0]?.headers['x-token']).toBe('dev-token');
  });

  test('env:NAME is the OS variable (masked as a secret); one not set is exit 2 where a request uses it', async () => {
    tmp.write('rt-os/.git/HEAD', 'ref: x\n');
    tmp.write('rt-os/resterm.env.json', JSON.stringify({ dev: { base: `${recorder.url}/rt-os`, auth: { token: 'env:RT_TOKEN' }, other: 'env:RT_UNSET' } }));
    tmp.write('rt-os/r.http', 'GET {{base}}/os\nX-Who: {{auth.token}}\n');
    const result = await reqflow(['run', 'r.http', '--env', 'dev', '-v'], 'rt-os', { RT_TOKEN: 'os-token-4f2a9' });
    expect(result.code).toBe(0);
    expect(result.got[0]?.headers['x-who']).toBe('os-token-4f2a9');
    expect(result.stdout + result.stderr).not.toContain('os-token-4f2a9');
    tmp.write('rt-os/unset.http', 'GET {{base}}/unset?o={{other}}\n');
    const unset = await reqflow(['run', 'unset.http', '--env', 'dev'], 'rt-os');
    expect(unset.code).toBe(2);
    expect(unset.stderr).toMatch(/unset\.http:1: \{\{other\}\} in request "request-1" is env:RT_UNSET, an OS variable that is not set \(dev\.other in \S*resterm\.env\.json\)\nhint: export RT_UNSET=… before running, or set it with -e other=value\n/);
    expect(unset.got).toEqual([]);
  });
});
