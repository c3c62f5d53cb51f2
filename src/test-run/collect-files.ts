/**
 * The request files of `reqflow test PATH…`: files as named, folders searched recursively, and
 * globs (`'api/**\/*.http'`, through tinyglobby: quoted globs work the same in every shell).
 * A folder is searched by the TUI's rule (`src/pipeline/request-files.ts`), so `package.json`,
 * an environment file or a JSON Schema is never taken for a request.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../core/errors/index.js';
import { findRequestFiles } from '../pipeline/request-files.js';

const GLOB = /[*?[\]{}]/;

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
      const { files } = await findRequestFiles(absolute);
      if (files.length === 0) throw new UsageError(`${path}: no request files in this folder`, { hint: 'request files end in .http, .rest or .ws, or are .yaml, .yml or .json files holding requests' });
      found.push(...files);
    } else found.push(absolute);
  }
  return [...new Set(found)];
}
