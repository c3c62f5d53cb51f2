/**
 * The project a request belongs to: what sessions, cookies and tokens are kept for (with the
 * profile), so a login in one project is never sent to another project's server.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { lazyBuiltin } from './lazy-builtin.js';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Files and folders that mark a project's root folder (version control, the `.http` tools' environments, a package). */
const PROJECT_MARKERS = ['.git', '.hg', 'http-client.env.json', 'http-client.private.env.json', '.httpyac.json', 'httpyac.config.js', '.vscode', 'package.json'];

/** Folders that mark a repository of its own: a boundary no profiles file above it moves. */
export const REPOSITORY_MARKERS: readonly string[] = ['.git', '.hg'];

/**
 * The project root: the folder of the profiles file when there is one — unless the request's
 * folder is in a repository of its own below it (a vendored or cloned repository inside a folder
 * of profiles shared by several): that repository then; else the nearest folder at or above the
 * request's folder that holds a project marker — never the home folder or `/` themselves, which
 * hold unrelated projects; else the request's folder alone. Real paths: a link to a folder is
 * that folder's project.
 */
export function projectRoot(requestDir: string, profilesPath?: string): string {
  const start = real(resolve(requestDir));
  if (profilesPath !== undefined) {
    const shared = real(dirname(resolve(profilesPath)));
    const repository = repositoryRoot(start);
    return repository !== undefined && repository !== shared && isInside(shared, repository) ? repository : shared;
  }
  return markedProject(start) ?? start;
}

/** The nearest folder at or above `dir` that is a repository's root (`.git`, `.hg`), never the home folder or `/` themselves. */
export function repositoryRoot(dir: string): string | undefined {
  return nearestWith(real(resolve(dir)), REPOSITORY_MARKERS, real(homedir()));
}

/** The nearest folder at or above `dir` with a project marker (never the home folder or `/` themselves), if any. */
export function markedProject(dir: string): string | undefined {
  return nearestWith(real(resolve(dir)), PROJECT_MARKERS, real(homedir()));
}

/**
 * A folder every user may write in, whose sticky bit keeps each user's files their own (`/tmp`,
 * `/var/tmp`, `/dev/shm`): it holds unrelated people's and programs' folders, so it is never a
 * project nor part of one — a `package.json` an `npm install` left in `/tmp`, or a
 * `.profiles.json` another user put there, must not make every folder below it one project.
 */
export function isSharedFolder(path: string): boolean {
  try {
    const { mode } = statSync(path);
    return (mode & 0o1002) === 0o1002;
  } catch {
    return false;
  }
}

/**
 * The nearest folder at or above `dir` holding one of `markers`, stopping before `stopAt` (and
 * at the filesystem root, which is never an answer unless it is `dir`'s own match) and at a
 * shared folder (`isSharedFolder`).
 */
export function nearestWith(dir: string, markers: readonly string[], stopAt?: string): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (at === stopAt || isSharedFolder(at)) return undefined;
    if (markers.some((marker) => existsSync(join(at, marker)))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/**
 * A file-name-safe key for a project: its path, percent-encoded (one to one, and readable in a
 * listing); a path too long for a file name is its folder's name and a SHA-256 of the path.
 */
export function projectKey(root: string): string {
  const encoded = encodeURIComponent(root);
  if (encoded.length <= 200) return encoded;
  const hash = lazyBuiltin<typeof import('node:crypto')>('node:crypto').createHash('sha256').update(root).digest('hex');
  return `${encodeURIComponent(basename(root)).slice(0, 60)}-${hash}`;
}

/** The real path (links resolved) of `path`; a path that does not exist (yet) is still a place, so it stays as written. */
export function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Is `path` the folder `root` or below it? (Compared as written: pass real paths where links matter.) */
export function isInside(root: string, path: string): boolean {
  const below = relative(root, path);
  return below === '' || (below !== '..' && !below.startsWith(`..${sep}`) && !isAbsolute(below));
}
