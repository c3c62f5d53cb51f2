import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, basename, join, resolve } from 'node:path';
import { lazyBuiltin } from './lazy-builtin.js';

/**
 * Writes a file so that readers see either the old content or the new, never a torn one:
 * write a temp file in the same folder, fsync, rename over the target. Synchronous fs on
 * purpose: the files are small, and `fs/promises` alone costs ms of every start-up.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<void> {
  const temp = writeTemp(path, data, options);
  try {
    renameSync(temp, path);
  } catch (error) {
    removeQuietly(temp);
    throw error;
  }
  removeStaleTemps(dirname(path), basename(path));
}

/**
 * Replaces `path` as {@link writeFileAtomic} does, but only while it still holds `expected`
 * (undefined: while there is no file): checked just before the rename, so that an edit made by
 * another program since `expected` was read is not written over. False, and nothing written,
 * when it changed: read it again and redo the edit.
 */
export async function replaceIfUnchanged(path: string, data: string, expected: string | undefined, options: WriteOptions = {}): Promise<boolean> {
  const temp = writeTemp(path, data, options);
  try {
    let now: string | undefined;
    try {
      now = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (now !== expected) return false;
    renameSync(temp, path);
    return true;
  } finally {
    removeQuietly(temp);
    removeStaleTemps(dirname(path), basename(path));
  }
}

/**
 * Creates `path` as {@link writeFileAtomic} writes it, but never over a file that is there:
 * written aside, then hard-linked into place (a link never replaces, so a file another program
 * creates meanwhile is kept). False when `path` exists. Where the file system has no hard links
 * (FAT, some network mounts) the check and the rename are two steps.
 */
export async function createFileAtomic(path: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<boolean> {
  const temp = writeTemp(path, data, options);
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    if (existsSync(path)) return false;
    renameSync(temp, path);
    return true;
  } finally {
    removeQuietly(temp);
    removeStaleTemps(dirname(path), basename(path));
  }
}

/**
 * Whether an output the user names (`--report junit=PATH`, a saved body) is written into as it is:
 * a device, a pipe or a socket (`/dev/null`, `/dev/stdout`, `>(…)`, a FIFO), followed through links,
 * and anything under /dev or /proc (`/dev/stdout` redirected to a file is that file: replacing it
 * would lose what is there). Replacing those with a file of ours would break them — a device, for
 * every user of the machine. Anything else is written atomically at the path itself: a symbolic
 * link put there is replaced, never followed into a file elsewhere (a repository could ship
 * `report.xml` → `~/.bashrc`).
 */
export function writesInPlace(path: string): boolean {
  if (/^\/(dev|proc)\//.test(resolve(path))) return true;
  try {
    const stat = statSync(path); // follows links, and /proc's magic ones: a pipe is a FIFO
    return !stat.isFile() && !stat.isDirectory();
  } catch {
    return false; // missing (made atomically), or unreachable (the write says why)
  }
}

/** An output the user names ({@link writesInPlace}): appended into a device or pipe as it is — without blocking the run on a FIFO nobody reads —, else atomically. */
export async function writeOutputFile(path: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<void> {
  if (writesInPlace(path)) await lazyBuiltin<typeof import('node:fs/promises')>('node:fs/promises').writeFile(path, data, { flag: 'a' });
  else await writeFileAtomic(path, data, options);
}

interface WriteOptions {
  mode?: number;
  dirMode?: number;
}

/** The data in a new temp file beside `path` (its folder made if missing), synced: its name. */
function writeTemp(path: string, data: string | Uint8Array, options: WriteOptions): string {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: options.dirMode ?? 0o700 });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${lazyBuiltin<typeof import('node:crypto')>('node:crypto').randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temp, 'w', options.mode ?? 0o600);
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    removeQuietly(temp);
    throw error;
  }
  closeSync(fd);
  return temp;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone (renamed into place, or removed by another writer)
  }
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
