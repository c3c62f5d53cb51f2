/**
 * A lock beside a file, for the read-modify-write steps that runs at once must take in turn:
 * saving a session, the history's rotation, the trust store, an OAuth refresh. proper-lockfile
 * (a maintained package, already the session's): a lock folder `<path>.lock` made atomically,
 * its time refreshed while it is held, so one left by a killed run is stale after 2 s (the least
 * it allows) and taken over — never one a live run holds, however long its step takes.
 */
import * as nodeFs from 'node:fs';
import { lazyBuiltin } from './lazy-builtin.js';

type Lockfile = typeof import('proper-lockfile');

/**
 * Its CommonJS module through require: import() would start the ES-module loader (~7 ms). In a
 * CommonJS bundle (the history's writer) `require` is there, and `import.meta` is not.
 */
function lockfile(): Lockfile {
  const load = typeof require === 'function' ? require : lazyBuiltin<typeof import('node:module')>('node:module').createRequire(import.meta.url);
  return load('proper-lockfile') as Lockfile;
}

/**
 * The calls proper-lockfile makes (and, for a lock taken synchronously, their `Sync` forms), its
 * lock folder made 0700 whatever the umask (its own mkdir uses 0777 & ~umask). Listed, not spread
 * from node:fs: a spread reads fs's lazy getters (its streams, `fs.promises`), ~3 ms of every
 * start-up, since this module is on the plain path (the session's and the history's locks).
 */
const privateFs = {
  mkdir: (path: string, callback: (error: NodeJS.ErrnoException | null) => void) => nodeFs.mkdir(path, { mode: 0o700 }, callback),
  mkdirSync: (path: string) => nodeFs.mkdirSync(path, { mode: 0o700 }),
  realpath: nodeFs.realpath,
  realpathSync: nodeFs.realpathSync,
  stat: nodeFs.stat,
  statSync: nodeFs.statSync,
  rmdir: nodeFs.rmdir,
  rmdirSync: nodeFs.rmdirSync,
  utimes: nodeFs.utimes,
  utimesSync: nodeFs.utimesSync,
};

const STALE_MS = 2_000;

/**
 * Runs `step` holding `<path>.lock`, waiting for another run's step (about 15 s at most, or
 * `waitMs`); past that the lock's `ELOCKED` error is thrown, and the step never runs unlocked.
 */
export async function withFileLock<T>(path: string, step: () => T | Promise<T>, waitMs = 15_000): Promise<T> {
  const release = await lockfile().lock(path, { realpath: false, stale: STALE_MS, retries: { retries: Math.ceil(waitMs / 50), minTimeout: 10, maxTimeout: 50 }, fs: privateFs });
  try {
    return await step();
  } finally {
    await release().catch(() => undefined); // compromised (taken over as stale): nothing left to release
  }
}

/**
 * The same for a synchronous step (the history's writer), without waiting: undefined when another
 * run holds the lock — that run is doing the step.
 */
export function tryFileLockSync<T>(path: string, step: () => T): T | undefined {
  let release: () => void;
  try {
    release = lockfile().lockSync(path, { realpath: false, stale: STALE_MS, fs: privateFs });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
    throw error;
  }
  try {
    return step();
  } finally {
    try {
      release();
    } catch {
      // compromised (taken over as stale): nothing left to release
    }
  }
}
