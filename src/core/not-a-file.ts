/**
 * Whether a path named where a file is expected is something no read should start on: a device
 * (/dev/zero and /dev/urandom never end — `readFile` takes every byte of memory before it
 * fails —, a disk, a terminal), a socket, or — where a file names it (a body include, a script,
 * a TLS file, a `$ref`) — a named pipe, whose read waits for a writer that may never come (a
 * link in a cloned repository to one of the user's pipes). Each reader of a file that the user
 * or a foreign document names asks here first.
 */
import { statSync, type Stats } from 'node:fs';

export interface NotAFileOptions {
  /** A path the user typed (`reqflow import postman <(…)`): a pipe is read, as `cat` reads it. Else refused. */
  pipe?: boolean;
}

function kindNotAFile(stat: Stats, options: NotAFileOptions): string | undefined {
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isFIFO() && options.pipe !== true) return 'a named pipe';
  return undefined;
}

/** `a device`, `a socket` or `a named pipe` when `path` is one (links followed); undefined otherwise, a missing file included (its reader says so). */
export function notAFile(path: string, options: NotAFileOptions = {}): string | undefined {
  try {
    return kindNotAFile(statSync(path), options);
  } catch {
    return undefined;
  }
}
