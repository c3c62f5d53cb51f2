/**
 * The bytes of a request file, wherever they come from: a regular file, a named pipe or a
 * process substitution (`reqflow run <(printf 'GET …')`, a FIFO behind /dev/fd/N), or stdin
 * (`reqflow run -`). All within one size limit; devices and sockets are refused, since
 * /dev/zero or /dev/urandom would never end and a terminal is not a file.
 */
import { createReadStream, readFileSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { UsageError, fileErrorWords } from '../core/errors/index.js';
import { readStreamAtMost } from '../core/read-stream-at-most.js';
import { shellWord } from '../core/shell.js';

/** Larger request files are refused (10,000 requests take ~1 MiB). */
const MAX_REQUEST_FILE = 64 * 1024 * 1024;
const LIMIT = `request files are at most ${MAX_REQUEST_FILE / 1024 / 1024} MiB`;

function unreadable(file: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException).code;
  const why = fileErrorWords(code) ?? String(code ?? error);
  // A folder holds request files: `reqflow test` is the command that runs them.
  return new UsageError(`cannot read request file ${file}: ${why}`, code === 'EISDIR' ? { hint: `to run every request file in it: reqflow test ${shellWord(file)}` } : {});
}

/** A stream read to its end, refused as soon as it passes the limit: a pipe has no size to check first. */
export function readLimited(stream: Readable, what: string): Promise<Buffer> {
  return readStreamAtMost(stream, MAX_REQUEST_FILE, () => new UsageError(`cannot read ${what}: more than ${MAX_REQUEST_FILE / 1024 / 1024} MiB arrived; ${LIMIT}`));
}

/**
 * The bytes of `path` (named `file` in messages): a regular file, or — `pipe`, the file the user
 * named to run — a FIFO read to its end. One another file names (`# @import`, `# @depends`) is
 * never a pipe: its read would wait for a writer that may never come.
 */
export async function readRequestFile(file: string, path: string, { pipe = false }: { pipe?: boolean } = {}): Promise<Buffer> {
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    throw unreadable(file, error);
  }
  if (stat.isFIFO() && pipe) return readLimited(createReadStream(path), `request file ${file}`).catch((error: unknown) => Promise.reject(error instanceof UsageError ? error : unreadable(file, error)));
  if (!stat.isFile() && !stat.isDirectory()) throw new UsageError(`cannot read request file ${file}: it is ${stat.isFIFO() ? 'a named pipe' : stat.isSocket() ? 'a socket' : 'a device'}, not a file`);
  if (stat.size > MAX_REQUEST_FILE) throw new UsageError(`cannot read request file ${file}: it is ${Math.round(stat.size / 1024 / 1024)} MiB; ${LIMIT}`);
  try {
    return readFileSync(path); // sync: fs/promises alone costs ms of every start-up
  } catch (error) {
    throw unreadable(file, error);
  }
}
