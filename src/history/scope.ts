/**
 * Whose history a `reqflow history` command reads: the project of the current folder (as
 * `reqflow cookies` and `reqflow oauth` find it) and a profile (`-p`, `$REQFLOW_PROFILE`, else
 * `default`, else the first) — the same project and profile `reqflow run` records under.
 */
import { projectRoot } from '../core/project.js';
import { profilesFileFor, selectProfile, loadProfiles, type ProfilesDocument } from '../core/profiles.js';
import { historyPath } from './paths.js';

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

/** The project of the current folder: the profiles file's folder, else the nearest folder with a project marker. */
export async function currentProject(flags: Pick<ScopeFlags, 'profiles'>, cwd: string): Promise<{ project: string; document: ProfilesDocument }> {
  const path = await profilesFileFor(cwd, cwd, flags.profiles);
  const document: ProfilesDocument = path ? await loadProfiles(path) : { profiles: [] };
  return { project: projectRoot(cwd, document.path), document };
}

export async function historyScope(flags: ScopeFlags, cwd: string, env: NodeJS.ProcessEnv): Promise<HistoryScope> {
  const { project, document } = await currentProject(flags, cwd);
  const profile = selectProfile(document, flags.profile, env, cwd).name;
  return { project, profile, path: historyPath(project, profile, env) };
}
