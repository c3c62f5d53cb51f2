/**
 * Which project folder a project's history was kept for (`core/folder-identity.ts`): a record,
 * `folder.json`, beside the profiles' history files. A history kept for an earlier folder at the
 * project's path (deleted and created again since) is neither shown nor added to: its files are
 * moved aside (`<file>.earlier-<time>`, nothing deleted) with one warning. A history without a
 * record (an earlier reqflow's) is adopted: the writer records the folder with its next entries.
 * Synchronous, and without node:crypto: the writer runs at the end of every run.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { earlierName, folderIdentity, isEarlierFolder, recordedIdentity, type FolderIdentity } from '../core/folder-identity.js';
import { HISTORY_EXTENSION, ROTATED_SUFFIX, historyFolder } from './paths.js';

const FOLDER_RECORD = 'folder.json';

interface FolderRecord {
  version: 1;
  project: string;
  folder: FolderIdentity;
}

/** The files of a history folder that are the project's history (each profile's, and its rotated one). */
function isHistoryFile(name: string): boolean {
  return name.endsWith(HISTORY_EXTENSION) || name.endsWith(`${HISTORY_EXTENSION}${ROTATED_SUFFIX}`);
}

/** The identity the folder's record holds: undefined when there is no record. */
function recorded(dir: string): FolderIdentity | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, FOLDER_RECORD), 'utf8');
  } catch {
    return undefined; // none yet (or no history at all)
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null; // not a record: another folder's, never adopted
  }
  return recordedIdentity(typeof parsed === 'object' && parsed !== null ? ((parsed as Partial<FolderRecord>).folder ?? null) : null);
}

/**
 * When the history in `dir` was kept for another folder than `current`, moves its files (and the
 * record) aside and warns once. True when the folder holds a record of `current` afterwards, false
 * when it holds none (adopted, or just set aside).
 */
export function setAsideEarlierHistory(dir: string, project: string, current: FolderIdentity | undefined, warn: (message: string) => void): boolean {
  const identity = recorded(dir);
  if (identity === undefined) return false;
  if (!isEarlierFolder(identity, current)) return true;
  const now = Date.now();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  for (const name of [...names.filter(isHistoryFile), FOLDER_RECORD]) {
    try {
      renameSync(join(dir, name), earlierName(join(dir, name), now));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // another run of this folder moved it a moment ago
    }
  }
  warn(`the history of ${project} was kept for an earlier folder at that path (deleted and created again since): not shown, not added to; moved its files aside in ${dir} (*.earlier-${now})`);
  return false;
}

/** Records the folder the history in `dir` is kept for (written by rename: a reader never sees half of it). */
export function recordHistoryFolder(dir: string, project: string, current: FolderIdentity): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const record: FolderRecord = { version: 1, project, folder: current };
  const path = join(dir, FOLDER_RECORD);
  const temp = join(dir, `.${FOLDER_RECORD}.${process.pid}.tmp`);
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(record)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // gone already
    }
    throw error;
  }
}

/**
 * Before a `reqflow history` command (or the UI) reads a project's history: one kept for an
 * earlier folder at its path is set aside, never shown. One stat of the project's folder.
 */
export function checkHistoryFolder(project: string, env: NodeJS.ProcessEnv, warn: (message: string) => void): void {
  setAsideEarlierHistory(historyFolder(project, env), project, folderIdentity(project), warn);
}
