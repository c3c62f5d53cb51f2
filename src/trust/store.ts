/**
 * The trusted projects (docs/trust.md): the project roots whose request files may run programs —
 * resterm's `# @auth command`, an httpyac script's `require`, httpyac's JavaScript config. Kept
 * in the user's config folder, never in a project (a project cannot trust itself), as real paths
 * (`projectRoot` resolves links), written atomically with mode 0600.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.js';
import { withFileLock } from '../core/file-lock.js';
import { configDir } from '../core/config-dir.js';
import { UsageError, fileErrorWords } from '../core/errors/index.js';

interface TrustFile {
  version: 1;
  projects: string[];
}

/** The store's file: `trusted-projects.json` in the config folder. */
export function trustStorePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'trusted-projects.json');
}

/** The trusted project roots, in the order they were trusted; none when the file does not exist. */
export function trustedProjects(env: NodeJS.ProcessEnv = process.env): string[] {
  const path = trustStorePath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new UsageError(`cannot read ${path}: ${fileErrorWords((error as NodeJS.ErrnoException).code) ?? String((error as NodeJS.ErrnoException).code ?? error)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`${path}: not valid JSON`, { hint: 'reqflow writes this file itself: remove it and trust the projects again (reqflow trust DIR)' });
  }
  const projects = (parsed as Partial<TrustFile> | null)?.projects;
  if (!Array.isArray(projects) || !projects.every((p): p is string => typeof p === 'string')) {
    throw new UsageError(`${path}: "projects" must be a list of folders`, { hint: 'reqflow writes this file itself: remove it and trust the projects again (reqflow trust DIR)' });
  }
  return projects;
}

/** Whether the project root is trusted: the same folder exactly (a parent's trust is not a child's, nor a sibling's). */
export function isTrustedProject(project: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return trustedProjects(env).includes(project);
}

/**
 * Adds or removes a project; true when the store changed. Read, changed and written under the
 * store's lock: two `reqflow trust` at once each kept only its own change (a revoked project
 * trusted again).
 */
export async function setTrusted(project: string, trusted: boolean, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const path = trustStorePath(env);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 }); // the lock is made beside the file
  try {
    return await withFileLock(path, async () => {
      const projects = trustedProjects(env);
      const has = projects.includes(project);
      if (has === trusted) return false;
      const next: TrustFile = { version: 1, projects: trusted ? [...projects, project] : projects.filter((p) => p !== project) };
      await writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600, dirMode: 0o700 });
      return true;
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    throw new UsageError(`cannot change ${path}: another reqflow kept it locked for too long`, { hint: 'run it again in a moment' });
  }
}
