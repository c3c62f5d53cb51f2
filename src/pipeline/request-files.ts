/**
 * Which files of a folder are request files: the one rule of the TUI's request tree,
 * `reqflow test DIR` and shell completion. `.http`, `.rest` and `.ws` files are; a `.json`,
 * `.yaml` or `.yml` file only when it parses as requests (see `holdsRequests`), so a JSON
 * Schema, a config file or a data fixture never shows up as a broken request file — and a
 * request file written on one line is found all the same.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { holdsRequests } from '../plugins/format-json/shape.js';

const TEXT_FORMATS = new Set(['.http', '.rest', '.ws']);
const DATA_FORMATS = new Set(['.json', '.yaml', '.yml']);
/** Configuration, never requests: not even read (package-lock.json alone can be megabytes). */
const NOT_REQUESTS = /^(package(-lock)?\.json|composer\.json|[jt]sconfig(\..*)?\.json|oclif\.manifest\.json|docker-compose\.ya?ml|http-client(\.private)?\.env\.json)$/i;
/** Folders never searched: dependencies and build output (hidden folders neither). */
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'build', 'coverage', 'target', 'vendor', '__pycache__']);
/** A data file larger than this is not read while searching (a request file that size is someone's fixture). */
const MAX_DATA_FILE = 4 * 1024 * 1024;

/** Whether deciding if `name` is a request file takes reading it: a JSON or YAML file that is no known config. */
function mustBeRead(name: string): boolean {
  return !NOT_REQUESTS.test(name) && DATA_FORMATS.has(extname(name).toLowerCase());
}

/** Whether the file at `path` is a request file by the rule above; unreadable files are not. */
export async function isRequestFile(path: string): Promise<boolean> {
  const name = basename(path);
  if (NOT_REQUESTS.test(name)) return false;
  const extension = extname(name).toLowerCase();
  if (TEXT_FORMATS.has(extension)) return true;
  if (!DATA_FORMATS.has(extension)) return false;
  try {
    if ((await stat(path)).size > MAX_DATA_FILE) return false;
    // The formats' own parsers: JSON.parse as format-json, js-yaml's load as format-yaml.
    const text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
    const data: unknown = extension === '.json' ? JSON.parse(text) : (await import('js-yaml')).load(text);
    return holdsRequests(data);
  } catch {
    return false; // unreadable, or not valid JSON/YAML: not a request file
  }
}

/**
 * A socket or a device named like a request file (`x.http`): listed, so that reading it says what
 * it is (`reqflow test DIR` exit 2) rather than the folder seeming empty. A FIFO is not: opening
 * one waits for a writer, and a search must not hang.
 */
function isNotAFile(entry: Dirent): boolean {
  return (entry.isSocket() || entry.isCharacterDevice() || entry.isBlockDevice()) && TEXT_FORMATS.has(extname(entry.name).toLowerCase());
}

/** Whether a folder search goes into this folder. */
export function isSearchedFolder(name: string): boolean {
  return !name.startsWith('.') && !SKIPPED_FOLDERS.has(name);
}

export interface SearchLimits {
  /** Folders below the root that are searched. */
  depth: number;
  /** Files found before the search stops (`truncated`). */
  files: number;
  /**
   * JSON and YAML files read to tell requests from data before the rest are passed over
   * (`truncated`): a folder of 20,000 fixtures took 6 s to search, 100,000 half a minute.
   */
  dataFiles: number;
}

/**
 * The request files under `root`, absolute, in name order (a folder's files and subfolders
 * interleaved), skipping hidden files and folders, dependencies and build output. `limits`
 * bound the search (the TUI's, so a huge tree cannot stall it); `reqflow test` has none.
 */
export async function findRequestFiles(root: string, limits: SearchLimits = { depth: Infinity, files: Infinity, dataFiles: Infinity }): Promise<{ files: string[]; truncated: boolean }> {
  const files: string[] = [];
  let truncated = false;
  let dataFilesRead = 0;
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // an unreadable folder is skipped, not fatal
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (files.length >= limits.files) {
        truncated = true;
        return;
      }
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < limits.depth && isSearchedFolder(entry.name)) await walk(path, depth + 1);
      } else if (entry.name.startsWith('.')) {
        continue;
      } else if (entry.isFile() && mustBeRead(entry.name) && dataFilesRead++ >= limits.dataFiles) {
        truncated = true; // past the budget: passed over unread
      } else if (entry.isFile() ? await isRequestFile(path) : isNotAFile(entry)) {
        files.push(path);
      }
    }
  };
  await walk(root, 0);
  return { files, truncated };
}
