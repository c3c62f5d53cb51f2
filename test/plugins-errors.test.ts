/**
 * Broken and conflicting third-party plugins, linked with the real `reqflow plugins link`
 * from the small packages in test/fixtures/plugins/:
 *   malformed    — a plugin with a non-function handler and one with a built-in's name
 *                  (skipped, one warning each) + one good one
 *   hook-throws  — its hook throws a plain Error (oclif would swallow it; reqflow warns)
 *   throwing     — auth method "explode" whose handler throws (exit 70 naming plugin and stage)
 *   team-a/b     — both claim auth method "team" (exit 2 naming both, only when asked for)
 *   extras       — a renderer that runs before the built-ins, and a `.lines` file format
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startDemoApi } from './servers/demo-api.js';
import { expectCleanFailure, expectNoStackTrace } from './helpers/expect-error.js';
import { FIXTURE_PLUGINS, pluginSandbox, warningLines } from './helpers/plugins.js';

const FIXTURES = ['malformed', 'hook-throws', 'throwing', 'team-a', 'team-b', 'extras'];
const EXPECTED_WARNINGS = [
  'reqflow: warning: skipping plugin package "reqflow-fixture-hook-throws": its reqflow:plugins hook failed: cannot read ~/.teamrc (remove it with: reqflow plugins uninstall reqflow-fixture-hook-throws)',
  'reqflow: warning: skipping a plugin from package "reqflow-fixture-malformed": plugin "half-done" stage "auth" is not a function (remove it with: reqflow plugins uninstall reqflow-fixture-malformed)',
  'reqflow: warning: skipping plugin "core-report" from package "reqflow-fixture-malformed": a built-in plugin has that name',
];

const sandbox = pluginSandbox();
let api: Awaited<ReturnType<typeof startDemoApi>>;

beforeAll(async () => {
  api = await startDemoApi();
  // Linked one by one: each `plugins link` rewrites oclif's package.json in the data folder.
  for (const fixture of FIXTURES) {
    const result = await sandbox.cli(['plugins', 'link', join(FIXTURE_PLUGINS, fixture), '--no-install']);
    if (result.code !== 0) throw new Error(`linking ${fixture} failed: ${result.stderr}`);
  }
  sandbox.write('.profiles.json', JSON.stringify([{ name: 'default', variables: { base: api.url } }]));
  sandbox.write('plain.http', 'GET {{base}}/health\n');
  sandbox.write('explode.http', '### boom\n# @auth explode\nGET {{base}}/health\n');
  sandbox.write('team.http', '### team\n# @auth team\nGET {{base}}/health\n');
  sandbox.write('stamp.http', '# @stamp blue\nGET {{base}}/echo\n');
  sandbox.write('shout.http', '# @render shout\nGET {{base}}/health\n');
  sandbox.write('two.lines', `GET ${api.url}/health\n\nGET ${api.url}/health\n`);
}, 60_000);

afterAll(async () => {
  await api.close();
  sandbox.cleanup();
});

describe('broken and conflicting plugins', () => {
  test('`reqflow plugins` lists every linked package', async () => {
    const result = await sandbox.cli(['plugins']);
    for (const fixture of FIXTURES) expect(result.stdout).toContain(`reqflow-fixture-${fixture} 1.0.0 (link)`);
  });

  test('a malformed export, a name clash and a throwing hook: one warning each, naming the package; the run goes on', async () => {
    const result = await sandbox.cli(['run', 'plain.http']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"status": "ok"');
    expect(warningLines(result.stderr)).toEqual(EXPECTED_WARNINGS);
    expectNoStackTrace(result.stderr);
  });

  test('the good plugin of a package with a malformed one still works', async () => {
    const result = await sandbox.cli(['run', 'stamp.http', '-o', 'json']);
    expect(result.code).toBe(0);
    const record = JSON.parse(result.stdout) as { body: { headers: Record<string, string> } };
    expect(record.body.headers['x-stamp']).toBe('blue');
  });

  test('a plugin that throws fails the request: exit 70 naming plugin and stage, no stack trace', async () => {
    const result = await sandbox.cli(['run', 'explode.http']);
    expectCleanFailure(result, { code: 70, message: /^reqflow: plugin "exploding-auth" failed in the auth stage: kaboom: token service unreachable$/, hint: /bug in the plugin; run with --debug/ });
    expect(result.stdout).toBe('');
  });

  test('with --debug, the plugin\'s stack trace follows', async () => {
    const result = await sandbox.cli(['run', 'explode.http', '--debug']);
    expect(result.code).toBe(70);
    expect(result.stderr).toMatch(/reqflow: plugin "exploding-auth" failed in the auth stage/);
    expect(result.stderr).toMatch(/^\s+at auth \(file:\/\/.*fixtures\/plugins\/throwing\/hook\.js:\d+:\d+\)$/m);
  });

  test('-o json reports the failure as a record too', async () => {
    const result = await sandbox.cli(['run', 'explode.http', '-o', 'json']);
    expect(result.code).toBe(70);
    expect(JSON.parse(result.stdout)).toMatchObject({ name: 'boom', error: { exitCode: 70, message: expect.stringContaining('plugin "exploding-auth" failed in the auth stage') } });
  });

  test('two plugins claiming one auth method: exit 2 naming both packages', async () => {
    const result = await sandbox.cli(['run', 'team.http']);
    expectCleanFailure(result, {
      code: 2,
      message: /^reqflow: plugin "team-auth-a" \(package reqflow-fixture-team-a\) and plugin "team-auth-b" \(package reqflow-fixture-team-b\) both provide auth method "team" \(request "team"\)$/,
      hint: /reqflow plugins uninstall reqflow-fixture-team-b/,
    });
  });

  test('the conflict does not affect requests that use another method', async () => {
    expect((await sandbox.cli(['run', 'plain.http'])).code).toBe(0);
  });

  test('a third-party renderer with `before` runs ahead of the built-in one', async () => {
    const result = await sandbox.cli(['run', 'shout.http']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('200 {"STATUS":"OK"}\n');
  });

  test('a third-party format: files with its extension are parsed by it', async () => {
    const result = await sandbox.cli(['run', 'two.lines', '--list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`line-1\tGET\t${api.url}/health\nline-3\tGET\t${api.url}/health\n`);
  });

  test('same result on every run, whatever order oclif\'s concurrent hooks finish in', async () => {
    // The team fixtures' hooks wait a random time, so they finish in either order.
    const runs = await Promise.all([1, 2, 3, 4].map(() => sandbox.cli(['run', 'team.http'])));
    const first = runs[0]?.stderr;
    expect(first).toContain('plugin "team-auth-a" (package reqflow-fixture-team-a) and plugin "team-auth-b"');
    for (const run of runs) expect(run.stderr).toBe(first);
  });
});

describe('a linked plugin whose folder was deleted', () => {
  const broken = pluginSandbox();
  afterAll(() => broken.cleanup());

  test('one warning line naming the missing file; the run goes on', async () => {
    const copy = join(broken.dir, 'gone-plugin');
    cpSync(join(FIXTURE_PLUGINS, 'team-a'), copy, { recursive: true });
    expect((await broken.cli(['plugins', 'link', copy, '--no-install'])).code).toBe(0);
    rmSync(copy, { recursive: true });
    broken.write('plain.http', `GET ${api.url}/health\n`);
    const result = await broken.cli(['run', 'plain.http']);
    expect(result.code).toBe(0);
    expect(warningLines(result.stderr)).toEqual([`reqflow: warning: a plugin could not be loaded: ENOENT: no such file or directory, open '${copy}/package.json' (see reqflow plugins; remove it with: reqflow plugins uninstall NAME)`]);
    expect(result.stderr).not.toMatch(/\(node:\d+\)|DEBUG=\*/);
  });
});
