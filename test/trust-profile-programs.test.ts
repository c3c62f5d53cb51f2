/**
 * A profile value that is a command (`"token": "$(…)"`) in the `.profiles.json` a project brings
 * runs only in a trusted project (docs/trust.md): a repository you just cloned cannot run a
 * program because you ran one of its requests — not with `--dry-run` either. Trusted (`reqflow
 * trust`, `--trust`), or a profiles file you name yourself (`--profiles`), it runs as before;
 * `-e` values are yours and always run. Against a real server on 127.0.0.1.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir, type CliResult } from './helpers/cli.js';
import { startRecorder, type Recorded, type Recorder } from './helpers/recorder.js';

const tmp = tempDir('reqflow-trust-profiles-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state'), REQFLOW_CONFIG_DIR: join(tmp.dir, 'config') };
let server: Recorder;

beforeAll(async () => {
  server = await startRecorder();
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

/** A cloned project: a profiles file whose `who` is a command that leaves a marker, and a request that uses it. */
function project(name: string): { dir: string; marker: string } {
  const dir = join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  const marker = join(dir, 'RAN');
  writeFileSync(join(dir, '.profiles.json'), JSON.stringify([{ name: 'default', variables: { who: `$(: > '${marker}'; printf ada)` } }]));
  writeFileSync(join(dir, 'api.http'), `GET ${server.url}/hello?who={{who}}\n`);
  return { dir, marker };
}

async function run(cwd: string, args: string[]): Promise<CliResult & { requests: Recorded[] }> {
  const before = server.received.length;
  const result = await runCli(args, { cwd, env });
  return { ...result, requests: server.received.slice(before) };
}

test('untrusted: exit 2 naming the profiles file, the variable and the remedy; nothing runs, nothing is sent — --dry-run alike', async () => {
  const { dir, marker } = project('untrusted');
  for (const extra of [[], ['--dry-run'], ['-o', 'json']]) {
    const { code, stderr, requests } = await run(dir, ['run', 'api.http', ...extra]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^reqflow: \S*\.profiles\.json: profile variable "who" is \$\(…\): it runs a program; `reqflow trust` this project or pass --trust$/m);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(requests).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  }
  const sent = await run(dir, ['send', `${server.url}/x?who={{who}}`]);
  expect([sent.code, sent.requests, existsSync(marker)]).toEqual([2, [], false]);
});

test('trusted with --trust, or with reqflow trust: it runs as before', async () => {
  const once = project('flag');
  const flagged = await run(once.dir, ['run', 'api.http', '--trust']);
  expect([flagged.code, flagged.requests.map((request) => request.url), existsSync(once.marker)]).toEqual([0, ['/hello?who=ada'], true]);
  const kept = project('store');
  expect((await run(kept.dir, ['trust'])).code).toBe(0);
  const stored = await run(kept.dir, ['run', 'api.http']);
  expect([stored.code, stored.requests.map((request) => request.url), existsSync(kept.marker)]).toEqual([0, ['/hello?who=ada'], true]);
  rmSync(kept.marker);
  expect((await run(kept.dir, ['trust', '--revoke'])).code).toBe(0);
  const revoked = await run(kept.dir, ['run', 'api.http']);
  expect([revoked.code, existsSync(kept.marker)]).toEqual([2, false]);
});

test('a profiles file named with --profiles is your own, and -e values are yours: they run untrusted', async () => {
  const { dir, marker } = project('chosen');
  const named = await run(dir, ['run', 'api.http', '--profiles', join(dir, '.profiles.json')]);
  expect([named.code, named.requests.map((request) => request.url), existsSync(marker)]).toEqual([0, ['/hello?who=ada'], true]);
  const cli = await run(dir, ['run', 'api.http', '-e', 'who=$(printf eve)']);
  expect([cli.code, cli.requests.map((request) => request.url)]).toEqual([0, ['/hello?who=eve']]);
});
