/**
 * The request files of `reqflow test PATH…`: files as named, folders searched recursively, and
 * globs (`'api/**\/*.http'`, through tinyglobby: quoted globs work the same in every shell).
 * In a folder, `.http`, `.rest` and `.ws` files are requests; a `.yaml`/`.yml`/`.json` file only when
 * it looks like one (a `url` or `requests` key), so `package.json` or an environment file is
 * never taken for a request.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { UsageError } from '../core/errors/index.js';

const TEXT = new Set(['.http', '.rest', '.ws']);
const STRUCTURED = new Set(['.yaml', '.yml', '.json']);
/** Never request files: the tools' environment and settings files, packages, profiles. */
const NOT_REQUESTS = /^(http-client(\.private)?\.env\.json|package(-lock)?\.json|tsconfig.*\.json|\.profiles\.json|.*\.schema\.json)$/i;
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', '.idea', '.vscode', 'dist', 'build', 'coverage']);
const GLOB = /[*?[\]{}]/;

async function looksLikeRequests(path: string): Promise<boolean> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return /^\s*-?\s*"?(url|requests)"?\s*:/m.test(text);
}

async function walk(folder: string, found: string[]): Promise<void> {
  const entries = (await readdir(folder, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith('.')) await walk(path, found);
    } else if (entry.isFile() && !NOT_REQUESTS.test(entry.name)) {
      const ext = extname(entry.name).toLowerCase();
      if (TEXT.has(ext) || (STRUCTURED.has(ext) && (await looksLikeRequests(path)))) found.push(path);
    }
  }
}

/** Absolute paths, in the order given (folders and globs sorted), each once. */
export async function collectFiles(paths: readonly string[], cwd: string): Promise<string[]> {
  const found: string[] = [];
  for (const path of paths.length > 0 ? paths : ['.']) {
    if (GLOB.test(path)) {
      const { glob } = await import('tinyglobby');
      const matches = (await glob(path, { cwd, absolute: true, ignore: ['**/node_modules/**', '**/.git/**'] })).sort();
      if (matches.length === 0) throw new UsageError(`${path}: no file matches`);
      found.push(...matches);
      continue;
    }
    const absolute = resolve(cwd, path);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) throw new UsageError(`${path}: no such file or folder`);
    if (info.isDirectory()) {
      const before = found.length;
      await walk(absolute, found);
      if (found.length === before) throw new UsageError(`${path}: no request files in this folder`, { hint: 'request files end in .http, .rest, .ws, .yaml, .yml or .json' });
    } else found.push(absolute);
  }
  return [...new Set(found)];
}
