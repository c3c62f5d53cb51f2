/**
 * The trusted projects (docs/trust.md): the project roots whose request files may run programs —
 * resterm's `# @auth command`, an httpyac script's `require`, httpyac's JavaScript config. Kept
 * in the user's config folder, never in a project (a project cannot trust itself), as real paths
 * (`projectRoot` resolves links), written atomically with mode 0600. Trust is given to the folder
 * at that path (`core/folder-identity.ts`): a folder deleted and created again there (another
 * repository, maybe) is not trusted by it.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.js';
import { withFileLock } from '../core/file-lock.js';
import { configDir } from '../core/config-dir.js';
import { UsageError, fileErrorWords } from '../core/errors/index.js';
import { folderIdentity, isEarlierFolder, recordedIdentity, type FolderIdentity } from '../core/folder-identity.js';
import { notAFile } from '../core/not-a-file.js';

interface TrustFile {
  version: 1;
  projects: string[];
  /**
   * Each trusted project's folder, by its path; none for a project an earlier reqflow trusted.
   * Beside `projects`, not in it: an earlier reqflow still reads the store.
   */
  folders: Record<string, FolderIdentity>;
}

/** Whether a project is trusted: `earlier` when its path is, but the trust was given to an earlier folder there. */
export type TrustState = 'trusted' | 'earlier' | 'untrusted';

/** The store's file: `trusted-projects.json` in the config folder. */
export function trustStorePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'trusted-projects.json');
}

const REWRITE_HINT = 'reqflow writes this file itself: remove it and trust the projects again (reqflow trust DIR)';

/** The store as the file holds it; empty when the file does not exist. */
function readStore(env: NodeJS.ProcessEnv): TrustFile {
  const path = trustStorePath(env);
  const folders = Object.create(null) as Record<string, FolderIdentity>;
  // A named pipe or a device in its place would be waited on, or read, for ever.
  const kind = notAFile(path);
  if (kind) throw new UsageError(`cannot read ${path}: it is ${kind}, not a file`, { hint: REWRITE_HINT });
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, projects: [], folders };
    throw new UsageError(`cannot read ${path}: ${fileErrorWords((error as NodeJS.ErrnoException).code) ?? String((error as NodeJS.ErrnoException).code ?? error)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`${path}: not valid JSON`, { hint: REWRITE_HINT });
  }
  const { projects, folders: recorded } = (parsed ?? {}) as { projects?: unknown; folders?: unknown };
  if (!Array.isArray(projects) || !projects.every((p): p is string => typeof p === 'string')) {
    throw new UsageError(`${path}: "projects" must be a list of folders`, { hint: REWRITE_HINT });
  }
  if (typeof recorded === 'object' && recorded !== null) {
    // A record that is not an identity matches no folder (recordedIdentity): that project is not trusted, never adopted.
    for (const project of projects) {
      const identity = Object.hasOwn(recorded, project) ? recordedIdentity((recorded as Record<string, unknown>)[project]) : undefined;
      if (identity !== undefined) folders[project] = identity;
    }
  }
  return { version: 1, projects, folders };
}

/** The store's projects in the order they were trusted (none when the file does not exist), each with whether the folder at its path now is the one trusted (`earlier`: it is not). Nothing is recorded. */
export function listTrust(env: NodeJS.ProcessEnv = process.env): { project: string; state: Exclude<TrustState, 'untrusted'> }[] {
  const store = readStore(env);
  return store.projects.map((project) => {
    const recorded = store.folders[project];
    return { project, state: recorded !== undefined && isEarlierFolder(recorded, folderIdentity(project)) ? 'earlier' : 'trusted' };
  });
}

/**
 * Whether the project root is trusted: the same folder exactly (a parent's trust is not a
 * child's, nor a sibling's), and the folder trusted, not another created at its path since. A
 * project an earlier reqflow trusted (no folder recorded) is trusted, and its folder recorded now.
 */
export async function trustOf(project: string, env: NodeJS.ProcessEnv = process.env): Promise<TrustState> {
  const store = readStore(env);
  if (!store.projects.includes(project)) return 'untrusted';
  const current = folderIdentity(project);
  const recorded = store.folders[project];
  if (recorded !== undefined) return isEarlierFolder(recorded, current) ? 'earlier' : 'trusted';
  if (current !== undefined) await recordFolder(project, current, env);
  return 'trusted';
}

/**
 * Changes the store under its lock (two `reqflow trust` at once each kept only its own change: a
 * revoked project trusted again): `change` edits the store read under the lock and says whether
 * to write it. What it returns is `change`'s answer.
 */
async function changeStore(env: NodeJS.ProcessEnv, change: (store: TrustFile) => { write: boolean; changed: boolean }): Promise<boolean> {
  const path = trustStorePath(env);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 }); // the lock is made beside the file
  try {
    return await withFileLock(path, async () => {
      const store = readStore(env);
      const { write, changed } = change(store);
      if (write) {
        const folders = Object.fromEntries(store.projects.filter((p) => Object.hasOwn(store.folders, p)).map((p) => [p, store.folders[p]]));
        await writeFileAtomic(path, `${JSON.stringify({ version: 1, projects: store.projects, folders }, null, 2)}\n`, { mode: 0o600, dirMode: 0o700 });
      }
      return changed;
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    throw new UsageError(`cannot change ${path}: another reqflow kept it locked for too long`, { hint: 'run it again in a moment' });
  }
}

const UNCHANGED = { write: false, changed: false };

/** Records the folder of a project an earlier reqflow trusted. A store that cannot be written keeps the trust as it was: recorded by a later run. */
async function recordFolder(project: string, current: FolderIdentity, env: NodeJS.ProcessEnv): Promise<void> {
  try {
    await changeStore(env, (store) => {
      if (!store.projects.includes(project) || store.folders[project] !== undefined) return UNCHANGED;
      store.folders[project] = current;
      return { write: true, changed: false };
    });
  } catch {
    // a read-only config folder, a lock held too long: the trust stands unrecorded, as an earlier reqflow had it
  }
}

/**
 * Adds or removes a project; true when the store changed. Trusting records the folder there now:
 * a project whose trust was given to an earlier folder at its path is trusted again (changed); one
 * an earlier reqflow trusted is already trusted, its folder recorded.
 */
export function setTrusted(project: string, trusted: boolean, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const current = folderIdentity(project);
  return changeStore(env, (store) => {
    const has = store.projects.includes(project);
    if (!trusted) {
      if (!has) return UNCHANGED;
      store.projects = store.projects.filter((p) => p !== project);
      return { write: true, changed: true };
    }
    const recorded = store.folders[project];
    if (has && recorded !== undefined && !isEarlierFolder(recorded, current)) return UNCHANGED;
    const again = has && recorded !== undefined; // trust given to an earlier folder at this path
    if (!has) store.projects = [...store.projects, project];
    if (current !== undefined) store.folders[project] = current;
    return { write: true, changed: !has || again };
  });
}
