/**
 * Reading a settings file a project brings — an environment file, a `.env`, `.profiles.json` —
 * within bounds: a regular file of at most 4 MiB. Such files are found by name in the folders
 * above a request file, so a cloned repository chooses what is there: a link to /dev/zero (read
 * whole, it takes every byte of memory), a named pipe (whose open waits for a writer for ever),
 * a 200 MB `.env` (gigabytes once split into lines and values), a private environment file of
 * a million values (each a secret, a dozen forms of it masked). Real ones are a few kilobytes.
 */
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { MAX_CONFIG_BYTES } from './input-limits.js';
import { readAtMost } from './read-bounded.js';
import type { PastLimit } from './read-stream-at-most.js';
import { UsageError } from './errors/index.js';

const LIMIT = `environment, .env and profiles files are at most ${MAX_CONFIG_BYTES / 1024 / 1024} MiB`;

export interface ReadConfigOptions {
  /** A pipe the user named (`--profiles <(sops -d profiles.json)`): read, within the same limit. Else refused. */
  pipe?: boolean;
}

/** The file's text ({@link decode}); exit 2 naming it when it is not a regular file (nor an allowed pipe) or is too large. Other failures are thrown as `fs` throws them. */
export function readConfigFile(path: string, options: ReadConfigOptions = {}): string {
  // O_NONBLOCK: opening a named pipe does not wait for a writer (it is refused below); a regular file reads as usual.
  const fd = openSync(path, options.pipe ? constants.O_RDONLY : constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    const pipe = options.pipe === true && stat.isFIFO();
    if (!stat.isFile() && !pipe) throw new UsageError(`cannot read ${path}: it is ${stat.isFIFO() ? 'a named pipe' : stat.isDirectory() ? 'a folder' : 'a device or a socket'}, not a file`);
    const refuse = ({ bytes, stated }: PastLimit): UsageError => new UsageError(`cannot read ${path}: ${stated ? `it is ${Math.ceil(bytes / 1024 / 1024)} MiB` : `more than ${MAX_CONFIG_BYTES / 1024 / 1024} MiB`}; ${LIMIT}`);
    return decode(readAtMost(fd, MAX_CONFIG_BYTES, refuse), path);
  } finally {
    closeSync(fd);
  }
}

/**
 * UTF-8, or UTF-16 with a byte-order mark (Windows' editors and PowerShell write it), the mark
 * dropped. Other bytes (and NULs) are refused: decoded anyway, `café` in Latin-1 would be sent as `caf�`.
 */
export function decode(bytes: Buffer, path: string): string {
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  // ASCII in UTF-16 without its mark is valid UTF-8 full of NULs; no text file holds one.
  if (encoding === 'utf-8' && bytes.includes(0)) throw new UsageError(`cannot read ${path}: not text: it holds NUL bytes (UTF-16 without a byte-order mark?)`, { hint: 'save it as UTF-8' });
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`cannot read ${path}: not valid ${encoding.toUpperCase()} text`, { hint: 'save it as UTF-8, e.g. iconv -f latin1 -t utf-8' });
  }
}

/** {@link readConfigFile}, every failure exit 2 naming the file: environment files, whose search found them. */
export function readEnvironmentFile(path: string): string {
  try {
    return readConfigFile(path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}
