/** The files and folders completion offers for a path being typed: request files only, or anything. */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { isRequestFile, isSearchedFolder } from '../pipeline/request-files.js';

/** One completion: the text, and what it is (shells that show descriptions show it). */
export interface Candidate {
  value: string;
  description?: string;
}

/** `~/x` → the home folder's `x`, other paths against `cwd`. */
export function expand(path: string, cwd: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : resolve(cwd, path);
}

function isFolder(path: string, entry: Dirent): boolean {
  if (entry.isDirectory()) return true;
  return entry.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

/**
 * Files and folders for the word typed so far, written as it was (`api/us` → `api/users.http`,
 * folders with their `/`). `requests`: only request files, and the folders a search enters.
 * Hidden entries only when the word asks for them (`.`).
 */
export async function paths(typed: string, cwd: string, only: 'requests' | 'any'): Promise<Candidate[]> {
  const written = typed === '~' ? '~/' : typed;
  const folderPart = written.slice(0, written.lastIndexOf('/') + 1);
  const start = written.slice(folderPart.length);
  const folder = expand(folderPart || '.', cwd);
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const found: Candidate[] = start === '.' || start === '..' ? [{ value: `${folderPart}${start}/` }] : [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!entry.name.startsWith(start) || (entry.name.startsWith('.') && !start.startsWith('.'))) continue;
    const path = join(folder, entry.name);
    if (isFolder(path, entry)) {
      if (only === 'any' || isSearchedFolder(entry.name) || start.startsWith('.')) found.push({ value: `${folderPart}${entry.name}/` });
    } else if (only === 'any' || (await isRequestFile(path))) found.push({ value: `${folderPart}${entry.name}` });
  }
  return found;
}
