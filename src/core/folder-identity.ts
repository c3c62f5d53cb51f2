/**
 * Which folder a project's state was kept for. A project's state (sessions, history, trust) is
 * found by the project's path, but it belongs to the folder: a folder deleted and a different
 * repository created at the same path (`rm -rf api && git clone other api`, a CI workspace used
 * again) is another project, and must not inherit the old one's login, history or trust.
 *
 * The identity is the folder's inode number and birth time. The number alone cannot tell: ext4
 * gives a folder made where one was just removed the freed number again. The birth time tells,
 * where the file system keeps one. The device number is left out: it changes across reboots and
 * containers for one same folder.
 */
import { statSync } from 'node:fs';

export interface FolderIdentity {
  /** The inode number in decimal (64 bits: NTFS's file ids are past 2^53). */
  ino: string;
  /** The birth time, nanoseconds since the epoch in decimal; absent where the file system keeps none. */
  born?: string;
}

/** The identity of the folder at `path` now (one stat); undefined when it cannot be told (no such folder, no inode numbers). */
export function folderIdentity(path: string): FolderIdentity | undefined {
  let stats;
  try {
    stats = statSync(path, { bigint: true });
  } catch {
    return undefined;
  }
  if (!stats.isDirectory() || stats.ino === 0n) return undefined;
  const ino = stats.ino.toString();
  // 0: the file system keeps no birth time. Equal to the change time: a folder not changed since
  // the clock tick it was made in (a tree written at once) — or a system where libuv cannot ask
  // for a birth time (no statx: an old container's seccomp filter; OpenBSD, illumos) and gives the
  // change time in its place, which moves with every file added: told apart by `/`.
  const born = stats.birthtimeNs;
  return born === 0n || (born === stats.ctimeNs && !realBirthTimes()) ? { ino } : { ino, born: born.toString() };
}

/** Whether this process's stat gives real birth times: libuv's stand-in, the change time, is given for every file, `/` included. */
function realBirthTimes(): boolean {
  try {
    const root = statSync('/', { bigint: true });
    return root.birthtimeNs !== root.ctimeNs;
  } catch {
    return false;
  }
}

/** What matches no folder: a record that is there but is not an identity (edited by hand) is another folder's, never adopted. */
const UNREADABLE: FolderIdentity = { ino: 'unreadable' };

/**
 * The identity a state file recorded: undefined when it recorded none (an earlier reqflow wrote
 * it: the state is adopted, and the identity recorded at its next write).
 */
export function recordedIdentity(value: unknown): FolderIdentity | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) return UNREADABLE;
  const { ino, born } = value as { ino?: unknown; born?: unknown };
  if (typeof ino !== 'string' || (born !== undefined && typeof born !== 'string')) return UNREADABLE;
  return born === undefined ? { ino } : { ino, born };
}

/**
 * Whether state recorded for `recorded` was kept for another folder than the one there now: the
 * inode numbers differ, or both birth times are known and differ. Never when the folder cannot
 * be told (`current` undefined).
 */
export function isEarlierFolder(recorded: FolderIdentity, current: FolderIdentity | undefined): boolean {
  if (current === undefined) return false;
  if (recorded.ino !== current.ino) return true;
  return recorded.born !== undefined && current.born !== undefined && recorded.born !== current.born;
}

/**
 * A project's root folder for one run: its identity is read at most once (one stat, when first
 * asked), so the state a run checks and the state it writes are bound to the same folder.
 */
export class ProjectFolder {
  private read = false;
  private known: FolderIdentity | undefined;
  constructor(readonly path: string) {}

  identity(): FolderIdentity | undefined {
    if (!this.read) {
      this.known = folderIdentity(this.path);
      this.read = true;
    }
    return this.known;
  }
}

/** The name state kept for an earlier folder is moved to: beside it, never read as state again. */
export function earlierName(path: string, now = Date.now()): string {
  return `${path}.earlier-${now}`;
}
