/**
 * bin/run.cjs's V8 code cache (docs/performance.md): a cache holds only the functions its run
 * compiled, so a cache written by a run that sent nothing (`--list`) is replaced, once, by the
 * first run that sends a request; after that no run writes it again. Runs after `npm run build`.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let server: Recorder;
const tmp = tempDir();
const cacheDir = join(tmp.dir, 'cache');
const env = { XDG_CACHE_HOME: cacheDir, REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  server = await startRecorder((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"id":1}');
  });
  tmp.write('one.http', `GET ${server.url}/one\n`);
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

/** The cache files of one bundle (the plain path's unless named), name → size and mtime. */
function fastRunCaches(bundle = 'fast-run', folder = join(cacheDir, 'reqflow')): Map<string, { size: number; mtimeMs: number }> {
  return new Map(
    readdirSync(folder)
      .filter((name) => name.startsWith(`${bundle}-`))
      .map((name) => {
        const { size, mtimeMs } = statSync(join(folder, name));
        return [name, { size, mtimeMs }];
      }),
  );
}

test('a cache written by a run that sent nothing is replaced by the first run that sends a request, then kept', async () => {
  expect((await runCli(['run', 'one.http', '--list'], { cwd: tmp.dir, env })).code).toBe(0);
  const partial = [...fastRunCaches()];
  expect(partial).toHaveLength(1);
  const [partialName, partialFile] = partial[0] as [string, { size: number }];
  expect(partialName).toMatch(/^fast-run-.*\d\.v8cache$/);

  // Another run that sends nothing keeps it.
  expect((await runCli(['run', 'one.http', '--list'], { cwd: tmp.dir, env })).code).toBe(0);
  expect([...fastRunCaches().keys()]).toEqual([partialName]);

  const sent = await runCli(['run', 'one.http', '-o', 'raw'], { cwd: tmp.dir, env });
  expect(sent.code).toBe(0);
  expect(sent.stdout).toBe('{"id":1}');
  const full = [...fastRunCaches()];
  expect(full).toHaveLength(1); // the partial one is gone
  const [fullName, fullFile] = full[0] as [string, { size: number; mtimeMs: number }];
  expect(fullName).toBe(partialName.replace(/\.v8cache$/, '.sent.v8cache'));
  expect(fullFile.size).toBeGreaterThan(partialFile.size); // it holds the request path's functions too

  // From now on, runs read it and write nothing.
  expect((await runCli(['run', 'one.http', '-o', 'raw'], { cwd: tmp.dir, env })).code).toBe(0);
  expect((await runCli(['run', 'one.http', '--list'], { cwd: tmp.dir, env })).code).toBe(0);
  expect(fastRunCaches()).toEqual(new Map([[fullName, fullFile]]));
});

test('a run whose request failed does not count as having sent one', async () => {
  const own = { ...env, XDG_CACHE_HOME: join(tmp.dir, 'cache-refused') };
  tmp.write('refused.http', 'GET http://127.0.0.1:1/nothing\n');
  expect((await runCli(['run', 'refused.http'], { cwd: tmp.dir, env: own })).code).not.toBe(0);
  const names = readdirSync(join(own.XDG_CACHE_HOME, 'reqflow')).filter((name) => name.startsWith('fast-run-'));
  expect(names).toHaveLength(1);
  expect(names[0]).not.toContain('.sent.');
});

test('the history writer, read when a run ends, has a cache of its own, written once', async () => {
  const own = { ...env, XDG_CACHE_HOME: join(tmp.dir, 'cache-history') };
  const folder = join(own.XDG_CACHE_HOME, 'reqflow');
  expect((await runCli(['run', 'one.http', '-o', 'raw'], { cwd: tmp.dir, env: own })).code).toBe(0);
  const written = fastRunCaches('history-write', folder);
  expect([...written.keys()]).toEqual([expect.stringMatching(/^history-write-.*\.sent\.v8cache$/)]);
  // The next run reads it and writes nothing; --no-history does not load the writer at all.
  expect((await runCli(['run', 'one.http', '-o', 'raw'], { cwd: tmp.dir, env: own })).code).toBe(0);
  expect((await runCli(['run', 'one.http', '-o', 'raw', '--no-history'], { cwd: tmp.dir, env: own })).code).toBe(0);
  expect(fastRunCaches('history-write', folder)).toEqual(written);
});
