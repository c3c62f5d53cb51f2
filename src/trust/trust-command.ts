/**
 * `reqflow trust [DIR]`, `--list`, `--revoke [DIR]`: the project of DIR (default: the current
 * folder) found as sessions find theirs — the profiles file's folder, else the nearest folder
 * with a project marker — added to or removed from the trust store.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../core/errors/index.js';
import { SecretRegistry } from '../core/mask.js';
import { findProfilesFile } from '../core/profiles.js';
import { projectRoot } from '../core/project.js';
import { visible } from '../report/render/visible.js';
import { exitCodeOf } from '../cli/report-error.js';
import { listTrust, setTrusted, trustStorePath } from './store.js';

export interface TrustFlags {
  list?: boolean;
  revoke?: boolean;
  profiles?: string;
  debug?: boolean;
}

/** The project a folder belongs to, as `loadProfileSession` finds it for a request file there. */
async function projectOf(dir: string, profiles: string | undefined): Promise<string> {
  const folder = resolve(dir);
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    // not there: said below
  }
  if (!isFolder) throw new UsageError(`${dir}: no such folder`, { hint: 'reqflow trust DIR takes a folder of the project' });
  const profilesPath = profiles ?? (await findProfilesFile(folder, folder));
  return projectRoot(folder, profilesPath);
}

export function trustCommand(flags: TrustFlags, dir: string | undefined, io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; env: NodeJS.ProcessEnv; cwd: string }): Promise<number> {
  return exitCodeOf(
    async () => {
      if (flags.list) {
        if (dir !== undefined || flags.revoke) throw new UsageError('--list takes no folder and no --revoke', { hint: 'reqflow trust --list' });
        const projects = listTrust(io.env);
        const line = ({ project, state }: (typeof projects)[number]): string => `${visible(project)}${state === 'earlier' ? '  (not trusted: trusted as an earlier folder at that path, deleted and created again since; reqflow trust it again if you trust this one)' : ''}`;
        io.stdout.write(projects.length === 0 ? `no trusted projects (${trustStorePath(io.env)})\n` : `${projects.map(line).join('\n')}\n`);
        return 0;
      }
      const project = await projectOf(resolve(io.cwd, dir ?? '.'), flags.profiles);
      const changed = await setTrusted(project, !flags.revoke, io.env);
      const state = flags.revoke ? (changed ? 'no longer trusted' : 'was not trusted') : changed ? 'trusted' : 'already trusted';
      io.stdout.write(`${visible(project)}: ${state}\n`);
      return 0;
    },
    io.stderr,
    () => ({ debug: flags.debug === true, secrets: new SecretRegistry() }),
    () => undefined,
  );
}
