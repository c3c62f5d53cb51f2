/**
 * Whose history a `reqflow history` command reads: the project of the current folder (as
 * `reqflow cookies` and `reqflow oauth` find it) and a profile (`-p`, `$REQFLOW_PROFILE`, else
 * `default`, else the first) — the same project and profile `reqflow run` records under.
 */
import { projectRoot } from '../core/project.js';
import { profilesFileFor, selectProfile, loadProfiles, type ProfilesDocument } from '../core/profiles.js';
import { checkHistoryFolder } from './folder-record.js';
import type { HistoryIo } from './io.js';
import { historyPath } from './paths.js';
import { warningLine } from '../report/render/visible.js';

export interface ScopeFlags {
  profile?: string;
  profiles?: string;
}

export interface HistoryScope {
  project: string;
  profile: string;
  /** The profile's history file (the rotated one is beside it). */
  path: string;
}

/**
 * The project of the current folder: the profiles file's folder, else the nearest folder with a
 * project marker. Its history, when it was kept for an earlier folder at that path, is set aside
 * first (one warning on stderr): never shown, never replayed.
 */
export async function currentProject(flags: Pick<ScopeFlags, 'profiles'>, io: Pick<HistoryIo, 'cwd' | 'env' | 'stderr'>): Promise<{ project: string; document: ProfilesDocument }> {
  const path = await profilesFileFor(io.cwd, io.cwd, flags.profiles);
  const document: ProfilesDocument = path ? await loadProfiles(path) : { profiles: [] };
  const project = projectRoot(io.cwd, document.path);
  checkHistoryFolder(project, io.env, (message) => io.stderr.write(`${warningLine(message)}\n`));
  return { project, document };
}

export async function historyScope(flags: ScopeFlags, io: Pick<HistoryIo, 'cwd' | 'env' | 'stderr'>): Promise<HistoryScope> {
  const { project, document } = await currentProject(flags, io);
  const profile = selectProfile(document, flags.profile, io.env, io.cwd).name;
  return { project, profile, path: historyPath(project, profile, io.env) };
}
