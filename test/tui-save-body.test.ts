/**
 * `s` (save the body) against what else happens to the file system: a file another program
 * creates while the UI writes (never written over: the UI asks), a read-only file, a read-only
 * folder, a full disk (a tiny tmpfs where this process may mount one, and /dev/full) — each one
 * line in the status bar naming the file and the cause, the original intact, the UI running.
 *
 * The other program is simulated at the one instant that matters: node:fs's openSync is wrapped
 * so that opening the save's temp file (`.raced.bin.PID.HEX.tmp`, core/atomic-write.ts) first
 * creates `raced.bin` — a file that appeared after every check the UI made, before its write.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import type * as Fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const realFs = await import('node:fs');
const raced = { created: 0 };
jest.unstable_mockModule('node:fs', () => ({
  ...realFs,
  default: realFs,
  openSync: ((path: Fs.PathLike, ...rest: unknown[]) => {
    if (typeof path === 'string' && /[/\\]\.raced\.bin\.\d+\.[0-9a-f]+\.tmp$/.test(path)) {
      realFs.writeFileSync(path.replace(/[/\\]\.(raced\.bin)\.\d+\.[0-9a-f]+\.tmp$/, '/$1'), 'theirs\n');
      raced.created += 1;
    }
    return (realFs.openSync as (...args: unknown[]) => number)(path, ...rest);
  }) as typeof Fs.openSync,
}));

const { readFileSync, writeFileSync, chmodSync, mkdirSync, readdirSync } = realFs;
const { tempDir } = await import('./helpers/cli.js');
const { harnessPerTest, isolatedEnv, sendRequest } = await import('./helpers/tui-harness.js');

const BODY = '{"saved": true}\n';
let server: Server;
let workspace: ReturnType<typeof tempDir>;
const startHarness = harnessPerTest();
const mounts: string[] = [];

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(BODY));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  workspace = tempDir('reqflow-tui-save-');
  workspace.write('api.http', `### body\nGET http://127.0.0.1:${(server.address() as AddressInfo).port}/\n`);
});

afterAll(async () => {
  for (const mount of mounts) execFileSync('umount', [mount]);
  await new Promise((resolve) => server.close(resolve));
  workspace.cleanup();
});

/** A tmpfs of `size` at `dir` (`ro`: read-only), where this process may mount one (root); false otherwise. */
function tmpfs(dir: string, options: string): boolean {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return false;
  }
  mounts.push(dir);
  return true;
}

/** The UI with the body received, the save prompt open on `path`. */
async function saveTo(path: string) {
  const h = await startHarness({ dir: workspace.dir, env: isolatedEnv(workspace.dir), columns: 160 });
  await sendRequest(h, 'body', '200 OK');
  await h.press('s');
  await h.waitFor('Save the body');
  await h.press('C-u');
  await h.type(path);
  await h.press('enter');
  return h;
}

describe('s: saving the body', () => {
  it('a file another program creates after the UI looked, before it wrote, is never written over: the UI asks, and keeps it on No', async () => {
    const h = await saveTo('raced.bin');
    await h.waitFor('raced.bin exists');
    expect(raced.created).toBe(1);
    expect(readFileSync(join(workspace.dir, 'raced.bin'), 'utf8')).toBe('theirs\n');
    await h.press('enter'); // "No, keep the file" is the default
    await h.waitFor('not saved: the file was kept');
    expect(readFileSync(join(workspace.dir, 'raced.bin'), 'utf8')).toBe('theirs\n');
    expect(readdirSync(workspace.dir).filter((name) => name.includes('raced'))).toEqual(['raced.bin']); // no temp file left
  });

  it('a read-only file is not replaced, even when the user would: one line, the file kept', async () => {
    const path = workspace.write('locked.json', 'mine\n');
    chmodSync(path, 0o444);
    const h = await saveTo('locked.json');
    expect(await h.waitFor('read-only')).toContain('not saved: locked.json is read-only (the file was kept)');
    expect(readFileSync(path, 'utf8')).toBe('mine\n');
    await sendRequest(h, 'body', '200 OK'); // still running
  });

  it('into a read-only folder: one line naming the file and the cause, not an internal error; the UI still runs', async () => {
    const dir = join(workspace.dir, 'ro');
    let cause: string;
    if (process.getuid?.() !== 0) {
      mkdirSync(dir);
      writeFileSync(join(dir, 'old.json'), 'kept\n');
      chmodSync(dir, 0o555);
      cause = 'permission denied';
    } else if (tmpfs(dir, 'ro,size=64k')) {
      cause = 'read-only file system'; // root writes into any folder: a read-only mount it cannot
    } else {
      process.stderr.write('SKIPPED test/tui-save-body.test.ts, a read-only folder: root, and no tmpfs may be mounted here\n');
      return;
    }
    const h = await saveTo('ro/out.json');
    const status = await h.waitFor(`not saved to ro/out.json: ${cause}`);
    expect(status).not.toMatch(/internal error|\.tmp/);
    await sendRequest(h, 'body', '200 OK');
  });

  it('onto a full disk (a 16 KiB tmpfs): one line naming the file, the file that was there intact, no temp file left', async () => {
    const dir = join(workspace.dir, 'full');
    if (!tmpfs(dir, 'size=16k')) {
      process.stderr.write('SKIPPED test/tui-save-body.test.ts, a full tmpfs: no tmpfs may be mounted here (needs root)\n');
      return;
    }
    writeFileSync(join(dir, 'filler'), Buffer.alloc(12 * 1024));
    writeFileSync(join(dir, 'out.json'), 'the original\n');
    // Fill what is left, so the temp file of the body gets no block.
    for (let i = 0; ; i++) {
      try {
        writeFileSync(join(dir, `more${i}`), Buffer.alloc(1024));
      } catch {
        break;
      }
    }
    const h = await saveTo('full/out.json');
    await h.waitFor('full/out.json exists');
    await h.press('j', 'enter');
    await h.waitFor('not saved to full/out.json: no space left on the device');
    expect(readFileSync(join(dir, 'out.json'), 'utf8')).toBe('the original\n');
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    await sendRequest(h, 'body', '200 OK');
  });

  it('onto /dev/full (ENOSPC on every write): one line, the UI still runs', async () => {
    const h = await saveTo('/dev/full');
    await h.waitFor('/dev/full exists');
    await h.press('j', 'enter');
    await h.waitFor('not saved to /dev/full: no space left on the device');
    await sendRequest(h, 'body', '200 OK');
  });
});
