/**
 * Reading a settings file a project brings — an environment file, a `.env`, `.profiles.json` —
 * within bounds: a regular file of at most 4 MiB. Such files are found by name in the folders
 * above a request file, so a cloned repository chooses what is there: a link to /dev/zero (read
 * whole, it takes every byte of memory), a named pipe (whose open waits for a writer for ever),
 * a 200 MB `.env` (gigabytes once split into lines and values), a private environment file of
 * a million values (each a secret, a dozen forms of it masked). Real ones are a few kilobytes.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { UsageError } from './errors/index.js';

const MAX_BYTES = 4 * 1024 * 1024;
const LIMIT = `environment, .env and profiles files are at most ${MAX_BYTES / 1024 / 1024} MiB`;

export interface ReadConfigOptions {
  /** A pipe the user named (`--profiles <(sops -d profiles.json)`): read, within the same limit. Else refused. */
  pipe?: boolean;
}

/** The file's text (UTF-8, its BOM dropped); exit 2 naming it when it is not a regular file (nor an allowed pipe) or is too large. Other failures are thrown as `fs` throws them. */
export function readConfigFile(path: string, options: ReadConfigOptions = {}): string {
  // O_NONBLOCK: opening a named pipe does not wait for a writer (it is refused below); a regular file reads as usual.
  const fd = openSync(path, options.pipe ? constants.O_RDONLY : constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    const pipe = options.pipe === true && stat.isFIFO();
    if (!stat.isFile() && !pipe) throw new UsageError(`cannot read ${path}: it is ${stat.isFIFO() ? 'a named pipe' : stat.isDirectory() ? 'a folder' : 'a device or a socket'}, not a file`);
    if (stat.size > MAX_BYTES) throw new UsageError(`cannot read ${path}: it is ${Math.ceil(stat.size / 1024 / 1024)} MiB; ${LIMIT}`);
    return readAtMost(fd, path).toString('utf8').replace(/^\uFEFF/, '');
  } finally {
    closeSync(fd);
  }
}

/** Every byte up to the limit (a pipe has no size to check first; a file may grow after its stat). */
function readAtMost(fd: number, path: string): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) return Buffer.concat(chunks, total);
    total += read;
    if (total > MAX_BYTES) throw new UsageError(`cannot read ${path}: more than ${MAX_BYTES / 1024 / 1024} MiB; ${LIMIT}`);
    chunks.push(read === chunk.length ? chunk : chunk.subarray(0, read));
  }
}
