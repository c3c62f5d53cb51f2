/**
 * The default headers of a project's tool config (docs/http-dialect.md, "Default headers"):
 * httpyac's `defaultHeaders` in `.httpyac.json` and VS Code REST Client's
 * `rest-client.defaultHeaders` go on every request that writes no header of that name. Found in
 * real projects (a Cookie with the session's credentials, a JSON Content-Type set once for all
 * files); without them those files went out without it.
 */
import { describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { ROOT, runCli } from './helpers/cli.js';
import { recordedRuns } from './helpers/recorded-runs.js';

const runs = recordedRuns('reqflow-default-headers-');
const { tmp, env, reqflow } = runs;

/** The headers the files decide (not the client's own, nor X-Client from the fixtures' profile). */
function decided(headers: Record<string, unknown>): Record<string, unknown> {
  const { 'user-agent': _ua, host: _host, connection: _connection, 'accept-encoding': _encoding, 'x-client': _profile, accept: _accept, ...rest } = headers;
  return rest;
}

describe("httpyac's defaultHeaders (.httpyac.json)", () => {
  test('on every request that writes none of that name, their variables resolved; a header the request writes wins in any spelling', async () => {
    const result = await reqflow(join(ROOT, 'test', 'fixtures', 'dialect', 'httpyac-defaults', 'requests.http'), ['--env', 'dev']);
    expect(result.stderr).not.toContain('reqflow:');
    expect(result.code).toBe(0);
    // Recorded from httpyac 6.16.7 (`httpyac send requests.http -a -e dev --var host=…`), header order aside.
    expect(result.got.map((r) => ({ line: `${r.method} ${r.url}`, headers: decided(r.headers), body: r.body.toString('latin1') }))).toEqual([
      { line: 'POST /defaults/query', headers: { 'content-type': 'application/json', cookie: 'Token=tok-dev;Database=Northwind', 'content-length': '12' }, body: '{"limit": 3}' },
      { line: 'POST /defaults/own', headers: { 'content-type': 'text/plain', cookie: 'Token=tok-dev;Database=Northwind', 'content-length': '5' }, body: 'plain' },
    ]);
  });

  test('without --env and without environments in the file, they still apply', async () => {
    tmp.write('bare/package.json', '{}');
    tmp.write('bare/.httpyac.json', '{ "defaultHeaders": { "X-Tenant": "acme" } }');
    const result = await reqflow(tmp.write('bare/get.http', 'GET {{host}}/bare\n'));
    expect(result.code).toBe(0);
    expect(result.got.map((r) => [r.url, r.headers['x-tenant']])).toEqual([['/bare', 'acme']]);
  });

  test('a value that is not text: exit 2 naming the file and the header, nothing sent', async () => {
    tmp.write('bad/package.json', '{}');
    tmp.write('bad/.httpyac.json', '{ "defaultHeaders": { "X-Tenant": { "name": "acme" } } }');
    const result = await reqflow(tmp.write('bad/get.http', 'GET {{host}}/never\n'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/\.httpyac\.json: "defaultHeaders"\.X-Tenant: a header's value is text, not an object/);
    expect(result.got).toEqual([]);
  });
});

describe("VS Code REST Client's rest-client.defaultHeaders (.vscode/settings.json)", () => {
  test('added where the request writes none of that name (VS Code: { ...defaultHeaders, ...headers } in parseRequestHeaders)', async () => {
    tmp.write('vscode/package.json', '{}');
    tmp.write('vscode/.vscode/settings.json', '{\n  // JSONC, as VS Code reads it\n  "rest-client.defaultHeaders": { "X-Api-Version": "2", "Accept": "application/json" }\n}\n');
    const result = await reqflow(tmp.write('vscode/api.rest', 'GET {{host}}/vscode/a\n\n###\nGET {{host}}/vscode/b\naccept: text/plain\n'));
    expect(result.code).toBe(0);
    expect(result.got.map((r) => [r.url, r.headers['x-api-version'], r.headers.accept])).toEqual([
      ['/vscode/a', '2', 'application/json'],
      ['/vscode/b', '2', 'text/plain'],
    ]);
  });
});

describe("another project's default headers are never sent", () => {
  test("a parent folder's .httpyac.json stops at a nested project (its .vscode marks it), though the environment search climbs to the .git", async () => {
    tmp.write('outer/.git/HEAD', 'ref: refs/heads/main\n');
    tmp.write('outer/.httpyac.json', '{ "defaultHeaders": { "Authorization": "Bearer outer-project-token", "X-Tenant": "outer" } }');
    tmp.write('outer/inner/.vscode/extensions.json', '{}');
    const result = await reqflow(tmp.write('outer/inner/get.http', 'GET {{host}}/inner\n'));
    expect(result.code).toBe(0);
    expect(result.got.map((r) => [r.url, r.headers.authorization, r.headers['x-tenant']])).toEqual([['/inner', undefined, undefined]]);
    // The outer project's own files still get them.
    const outer = await reqflow(tmp.write('outer/get.http', 'GET {{host}}/outer\n'));
    expect(outer.got.map((r) => [r.url, r.headers['x-tenant']])).toEqual([['/outer', 'outer']]);
  });

  test("the home folder's .vscode/settings.json is no project's: a downloaded file under home does not send its default headers", async () => {
    tmp.write('home/.vscode/settings.json', '{ "rest-client.defaultHeaders": { "Authorization": "Bearer home-token" } }');
    const file = tmp.write('home/Downloads/get.http', 'GET {{host}}/download\n');
    const before = runs.recorder.received.length;
    const result = await runCli(['run', file, '-e', `host=${runs.recorder.url}`], { env: { ...env, HOME: join(tmp.dir, 'home') } });
    expect(result.code).toBe(0);
    expect(runs.recorder.received.slice(before).map((r) => [r.url, r.headers.authorization])).toEqual([['/download', undefined]]);
  });
});

describe('an error in a header the request did not write names the file and the header it is written in', () => {
  test.each([
    ['.httpyac.json', '{ "defaultHeaders": { "Cookie": "Token={{token}}" } }', '"defaultHeaders".Cookie'],
    ['.vscode/settings.json', '{ "rest-client.defaultHeaders": { "Cookie": "Token={{token}}" } }', '"rest-client.defaultHeaders".Cookie'],
    ['package.json', '{ "httpyac": { "defaultHeaders": { "Cookie": "Token={{token}}" } } }', '"httpyac.defaultHeaders".Cookie'],
  ])('%s: an unknown variable in its default header is exit 3 naming the file and the header, nothing sent', async (config, text, field) => {
    const dir = `origin-${config.replace(/\W/g, '')}`;
    tmp.write(`${dir}/package.json`, '{}');
    tmp.write(`${dir}/${config}`, text);
    const result = await reqflow(tmp.write(`${dir}/get.http`, 'GET {{host}}/never\n'));
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`reqflow: ${join(tmp.dir, dir, config)}: ${field}: unknown variable "token" in request "request-1"\n`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.got).toEqual([]);
  });

  test("a request's own header of that name is the request's: its error does not name the config", async () => {
    tmp.write('origin-own/package.json', '{}');
    tmp.write('origin-own/.httpyac.json', '{ "defaultHeaders": { "Cookie": "Token={{token}}" } }');
    const result = await reqflow(tmp.write('origin-own/get.http', 'GET {{host}}/never\ncookie: {{session}}\n'));
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`reqflow: ${join(tmp.dir, 'origin-own', 'get.http')}:2: unknown variable "session" in request "request-1"\n`);
    expect(result.stderr).not.toContain('.httpyac.json');
  });

  test('a profile header (.profiles.json) names that file and the header; one the profile sets over the config is the profile\'s', async () => {
    tmp.write('origin-profile/package.json', '{}');
    tmp.write('origin-profile/.httpyac.json', '{ "defaultHeaders": { "x-api-key": "{{configKey}}" } }');
    tmp.write('origin-profile/.profiles.json', '[{ "name": "default", "headers": { "X-Api-Key": "{{apiKey}}" } }]');
    const result = await reqflow(tmp.write('origin-profile/get.http', 'GET {{host}}/never\n'));
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`reqflow: ${join(tmp.dir, 'origin-profile', '.profiles.json')}: profiles[0].headers.X-Api-Key: unknown variable "apiKey" in request "request-1"\n`);
    expect(result.got).toEqual([]);
  });
});
