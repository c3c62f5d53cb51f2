/**
 * Runs of one profile at the same time (a login in one terminal, a refresh in a CI job, two
 * `reqflow test --save` runs) must not lose each other's session values: eight processes load
 * the same session, change different values, and save at the same moment; every value is in the
 * file afterwards, which is still 0600 with no lock left behind.
 */
import { afterAll, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const state = mkdtempSync(join(tmpdir(), 'reqflow-sessions-'));
afterAll(() => rmSync(state, { recursive: true, force: true }));

/** A child that loads the session, changes its own values, waits for `go`, then saves. */
const CHILD = `
const { loadSession } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/core/session.js')).href)});
const { existsSync } = await import('node:fs');
const [n, go] = process.argv.slice(1);
const session = await loadSession('shared', { project: '/shared' });
session.set('value' + n, 'from-' + n);
session.setData('key' + n, { n: Number(n) });
if (n === '0') session.delete('old');
process.stdout.write('ready\\n');
while (!existsSync(go)) await new Promise((r) => setTimeout(r, 2));
await session.save();
`;

function child(n: number, go: string): { ready: Promise<void>; done: Promise<number> } {
  const proc = spawn(process.execPath, ['--input-type=module', '-e', CHILD, String(n), go], { env: { ...process.env, REQFLOW_STATE_DIR: state }, stdio: ['ignore', 'pipe', 'inherit'] });
  return {
    ready: new Promise((resolveReady) => proc.stdout.once('data', () => resolveReady())),
    done: new Promise((resolveDone) => proc.once('exit', (code) => resolveDone(code ?? -1))),
  };
}

test('eight processes save one profile\'s session at once: no value is lost', async () => {
  const file = join(state, 'sessions', '%2Fshared', 'shared.json');
  const before = child(9, join(state, 'go-now'));
  writeFileSync(join(state, 'go-now'), '');
  expect(await before.done).toBe(0);
  // A value another run saved earlier, and one that process 0 deletes.
  const seeded = JSON.parse(readFileSync(file, 'utf8')) as { variables: Record<string, string> };
  seeded.variables.old = 'stale';
  writeFileSync(file, JSON.stringify(seeded));

  const go = join(state, 'go');
  const children = Array.from({ length: 8 }, (_, n) => child(n, go));
  await Promise.all(children.map((c) => c.ready));
  writeFileSync(go, '');
  expect(await Promise.all(children.map((c) => c.done))).toEqual(Array(8).fill(0));

  const saved = JSON.parse(readFileSync(file, 'utf8')) as { variables: Record<string, string>; data: Record<string, { n: number }> };
  expect(saved.variables).toEqual(Object.fromEntries([9, 0, 1, 2, 3, 4, 5, 6, 7].map((n) => [`value${n}`, `from-${n}`])));
  expect(Object.keys(saved.data).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 9].map((n) => `key${n}`).sort());
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(readdirSync(join(state, 'sessions', '%2Fshared')).filter((name) => name.endsWith('.lock'))).toEqual([]);
  expect(existsSync(`${file}.lock`)).toBe(false);
}, 30_000);
