import { open, readdir, rename, unlink, mkdir } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { lazyBuiltin } from './lazy-builtin.js';

/**
 * Writes a file so that readers see either the old content or the new, never a torn one:
 * write a temp file in the same folder, fsync, rename over the target.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: { mode?: number; dirMode?: number } = {}): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: options.dirMode ?? 0o700 });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${lazyBuiltin<typeof import('node:crypto')>('node:crypto').randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temp, 'w', options.mode ?? 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await removeStaleTemps(dir, basename(path));
}

/**
 * A writer killed between open and rename leaves its temp file (a session's holds tokens).
 * Remove those of processes that no longer run; never touch a live writer's.
 */
async function removeStaleTemps(dir: string, name: string): Promise<void> {
  const prefix = `.${name}.`;
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.startsWith(prefix) || !entry.endsWith('.tmp')) continue;
    const pid = Number(/^(\d+)\.[0-9a-f]+\.tmp$/.exec(entry.slice(prefix.length))?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || isAlive(pid)) continue;
    await unlink(join(dir, entry)).catch(() => undefined);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: a probe, nothing is sent
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
