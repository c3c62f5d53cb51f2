/**
 * The trust store (docs/trust.md): `reqflow trust`, `--list`, `--revoke`. It lives in the config
 * folder, private under any umask, written by rename (never torn, never edited in place), keyed by
 * the project's real root — a project's folder, its subfolder and a link to it are one project; a
 * sibling, a parent or a child project is another.
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, runCli, runShell, tempDir } from './helpers/cli.js';

const tmp = tempDir('reqflow-trust-store-');
afterAll(() => tmp.cleanup());

/** A config folder of its own per test: the store starts empty. */
function setup(name: string): { env: NodeJS.ProcessEnv; store: string; project(dir: string): string } {
  const config = join(tmp.dir, name, 'config');
  return {
    env: { REQFLOW_CONFIG_DIR: config, REQFLOW_STATE_DIR: join(tmp.dir, name, 'state') },
    store: join(config, 'trusted-projects.json'),
    project(dir) {
      const path = join(tmp.dir, name, dir);
      mkdirSync(join(path, 'sub', 'deeper'), { recursive: true });
      writeFileSync(join(path, 'package.json'), '{}');
      return realpathSync(path);
    },
  };
}

const stored = (store: string): string[] => (JSON.parse(readFileSync(store, 'utf8')) as { projects: string[] }).projects;

describe('reqflow trust', () => {
  test('runs at once each keep their change: every project trusted, every revoked one revoked', async () => {
    const { env, store, project } = setup('concurrent');
    const roots = Array.from({ length: 12 }, (_, i) => project(`p${i}`));
    const trusted = await Promise.all(roots.map((root) => runCli(['trust', root], { env })));
    expect(trusted.map((result) => result.code)).toEqual(roots.map(() => 0));
    expect(stored(store).sort()).toEqual([...roots].sort());
    // Half revoked while others are trusted again (already trusted: no change) at the same moment.
    await Promise.all(roots.map((root, i) => runCli(i % 2 === 0 ? ['trust', '--revoke', root] : ['trust', root], { env })));
    expect(stored(store).sort()).toEqual(roots.filter((_, i) => i % 2 === 1).sort());
    expect(existsSync(`${store}.lock`)).toBe(false);
  });

  test('trusts the project root of a subfolder, once; lists it; revokes it', async () => {
    const { env, store, project } = setup('basic');
    const root = project('api');
    const first = await runCli(['trust', join(root, 'sub', 'deeper')], { env });
    expect(first).toMatchObject({ code: 0, stdout: `${root}: trusted\n` });
    expect((await runCli(['trust'], { env, cwd: join(root, 'sub') })).stdout).toBe(`${root}: already trusted\n`);
    expect(stored(store)).toEqual([root]);
    expect((await runCli(['trust', '--list'], { env })).stdout).toBe(`${root}\n`);
    expect((await runCli(['trust', '--revoke', root], { env })).stdout).toBe(`${root}: no longer trusted\n`);
    expect((await runCli(['trust', '--revoke', root], { env })).stdout).toBe(`${root}: was not trusted\n`);
    expect(stored(store)).toEqual([]);
    expect((await runCli(['trust', '--list'], { env })).stdout).toMatch(/^no trusted projects/);
  });

  test('a link to the project is the project (kept by its real path)', async () => {
    const { env, store, project } = setup('link');
    const root = project('real');
    const link = join(tmp.dir, 'link', 'alias');
    symlinkSync(root, link);
    expect((await runCli(['trust', link], { env })).code).toBe(0);
    expect(stored(store)).toEqual([root]);
  });

  test('the store is private under umask 000, and replaced by rename (no temp file left)', async () => {
    const { env, store, project } = setup('private');
    const a = project('a');
    const b = project('b');
    const trust = (dir: string): Promise<{ code: number | null }> => runShell('/bin/sh', `umask 000; "${process.execPath}" "${BIN}" trust "${dir}"`, { cwd: tmp.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } });
    expect((await trust(a)).code).toBe(0);
    expect(statSync(store).mode & 0o777).toBe(0o600);
    expect(statSync(join(store, '..')).mode & 0o777).toBe(0o700);
    const before = statSync(store).ino;
    expect((await trust(b)).code).toBe(0);
    expect(statSync(store).ino).not.toBe(before); // a new file renamed over the old, never written in place
    expect(statSync(store).mode & 0o777).toBe(0o600);
    expect(stored(store)).toEqual([a, b]);
    expect(readdirSync(join(store, '..'))).toEqual(['trusted-projects.json']);
  });

  test('a broken store is an error naming it, and is left as it is', async () => {
    const { env, store, project } = setup('broken');
    const root = project('p');
    mkdirSync(join(store, '..'), { recursive: true });
    writeFileSync(store, '{"projects": [');
    const { code, stderr } = await runCli(['trust', root], { env });
    expect(code).toBe(2);
    expect(stderr).toContain(`reqflow: ${store}: not valid JSON`);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(store, 'utf8')).toBe('{"projects": [');
  });

  test('a named pipe in the store\'s place is an error naming it, never waited on', async () => {
    const { env, store, project } = setup('pipe');
    const root = project('p');
    mkdirSync(join(store, '..'), { recursive: true });
    execFileSync('mkfifo', [store]);
    const { code, stderr } = await runCli(['trust', root], { env, timeoutMs: 15_000 });
    expect(code).toBe(2);
    expect(stderr).toContain(`reqflow: cannot read ${store}: it is a named pipe, not a file`);
  });

  test('--list with a folder, or a folder that is not there, is a usage error; nothing is stored', async () => {
    const { env, store } = setup('usage');
    const list = await runCli(['trust', '--list', '.'], { env });
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('--list takes no folder');
    const missing = await runCli(['trust', join(tmp.dir, 'usage', 'nowhere')], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nowhere: no such folder');
    expect(existsSync(store)).toBe(false);
  });
});
