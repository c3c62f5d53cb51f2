import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { lazyBuiltin } from './lazy-builtin.js';

/**
 * Writes a file so that readers see either the old content or the new, never a torn one:
 * write a temp file in the same folder, fsync, rename over the target. Synchronous fs on
 * purpose: the files are small, and `fs/promises` alone costs ms of every start-up.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: { mode?: number; dirMode?: number } = {}): Promise<void> {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: options.dirMode ?? 0o700 });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${lazyBuiltin<typeof import('node:crypto')>('node:crypto').randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temp, 'w', options.mode ?? 0o600);
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
    throw error;
  }
  removeStaleTemps(dir, basename(path));
}

/**
 * A writer killed between open and rename leaves its temp file (a session's holds tokens).
 * Remove those of processes that no longer run; never touch a live writer's.
 */
function removeStaleTemps(dir: string, name: string): void {
  const prefix = `.${name}.`;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.startsWith(prefix) || !entry.endsWith('.tmp')) continue;
    const pid = Number(/^(\d+)\.[0-9a-f]+\.tmp$/.exec(entry.slice(prefix.length))?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || isAlive(pid)) continue;
    try {
      unlinkSync(join(dir, entry));
    } catch {
      // another writer removed it first
    }
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
