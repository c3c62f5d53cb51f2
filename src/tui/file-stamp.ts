import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { fileErrorWords } from '../core/errors/index.js';

/** What a request file held when it was read: a digest of its bytes (a time stamp misses a rewrite in the same clock tick). */
export type FileStamp = string;

/**
 * The stamp of the regular file at `path` now, undefined when it is not one or cannot be read.
 * Taken before the file is parsed: a write between the two shows as a change, never hides one.
 */
export function stampOf(path: string): FileStamp | undefined {
  try {
    if (!statSync(path).isFile()) return undefined; // a named pipe's read would wait for a writer
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return undefined;
  }
}

/**
 * How the request file at `path` (shown as `label`) is no longer the one read with `stamp`:
 * `'changed'` (a file still, that holds something else), a sentence saying what it is now
 * (deleted, a folder, a named pipe, a loop of links), or undefined when it holds the same bytes.
 */
export function fileChange(path: string, label: string, stamp: FileStamp | undefined): string | undefined {
  let now;
  try {
    now = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return `${label} was deleted`;
    if (code === 'ELOOP') return `${label} is now a loop of symbolic links`;
    return `${label} cannot be read: ${fileErrorWords(code) ?? code ?? String(error)}`;
  }
  if (now.isDirectory()) return `${label} is now a folder`;
  if (!now.isFile()) return `${label} is now ${now.isFIFO() ? 'a named pipe' : now.isSocket() ? 'a socket' : 'a device'}, not a file`;
  return stamp !== undefined && stampOf(path) === stamp ? undefined : 'changed';
}
