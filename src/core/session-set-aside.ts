/**
 * A session file that must not be used, moved aside — never deleted, never written over: a
 * corrupt one (`<file>.corrupt-<time>`), and one kept for an earlier folder at the project's path
 * (`<file>.earlier-<time>`: deleted and created again since, another repository maybe, whose
 * servers must not get the old folder's tokens and cookies), and one an earlier reqflow kept per
 * profile name for every project at once (`<file>.shared-<time>`: whose login it holds cannot be
 * told). Loaded only then.
 */
import { chmodSync, lstatSync, renameSync } from 'node:fs';
import { earlierName } from './folder-identity.js';

/**
 * Moves the file aside, 0600 (it may hold tokens) — but never through a link put in its place
 * (the mode would land on the link's target, a file of the user's) — and says so through `warn`.
 * Throws the file system's error.
 */
export function setAsideSession(path: string, reason: 'corrupt' | 'earlier' | 'shared', profile: string, project: string, warn?: (message: string) => void): void {
  const aside = reason === 'corrupt' ? `${path}.corrupt-${Date.now()}` : reason === 'shared' ? `${path}.shared-${Date.now()}` : earlierName(path);
  try {
    renameSync(path, aside);
  } catch (error) {
    // Another run moved it a moment ago, and said so.
    if (reason !== 'corrupt' && (error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!lstatSync(aside).isSymbolicLink()) chmodSync(aside, 0o600);
  warn?.(
    reason === 'corrupt'
      ? `session file of profile "${profile}" was corrupt; moved it to ${aside} and started a new session`
      : reason === 'shared'
        ? `the session of profile "${profile}" that an earlier reqflow kept for every project at once is not used here (${project}): it may hold another project's login; moved it to ${aside} — log in again`
        : `the session of profile "${profile}" was kept for an earlier folder at ${project} (deleted and created again since): its tokens and cookies are not sent; moved it to ${aside} and started a new session`,
  );
}
