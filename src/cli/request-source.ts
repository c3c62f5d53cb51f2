/**
 * Where the requests of a run come from: a request file (a named pipe or a process
 * substitution too, `reqflow run <(printf 'GET …')`), stdin (`reqflow run -`), or the
 * arguments of `reqflow send`. Each runs through the same loop; the source's `path` is the
 * file the run takes them from, and its folder is where relative paths, the profile, the
 * session and the environment files are found.
 */
import { join, resolve } from 'node:path';
import type { SecretRegistry } from '../core/mask.js';
import type { PluginRegistry } from '../core/registry.js';
import { loadRequestBytes, loadRequestFile } from '../pipeline/parse-file.js';
import type { RequestFile } from '../pipeline/request-file.js';
import { readLimited } from '../pipeline/read-request-source.js';

export interface RequestSource {
  /** Absolute. For stdin and `send`, a name in the current folder that no file holds (`<stdin>`, `<send>`). */
  path: string;
  /** The source is stdin: nothing else may read it (no prompts). */
  readsStdin?: boolean;
  /** Reads and parses (or builds) the requests. */
  load(services: SourceServices): Promise<RequestFile>;
}

export interface SourceServices {
  registry: PluginRegistry;
  warn(message: string): void;
  /** Values the source knows to be secret (a password given on the command line). */
  secrets: SecretRegistry;
}

/** How stdin is named in messages and reports. */
export const STDIN_NAME = '<stdin>';

/** The stdin a source may read, and whether it is a terminal. */
export interface SourceIo {
  stdin: NodeJS.ReadStream;
  stdinIsTTY?: boolean;
  stderr: NodeJS.WriteStream;
  cwd: string;
}

/** A request file named on the command line: `-` is stdin; `format` is `--format`. */
export function fileSource(file: string, io: SourceIo, format?: string): RequestSource {
  const withFormat = format !== undefined ? { format } : {};
  if (file === '-') {
    const path = join(io.cwd, STDIN_NAME);
    return {
      path,
      readsStdin: true,
      load: async ({ registry, warn }) => {
        // `cat -` reads a terminal too; say how to end, since nothing else would.
        if (io.stdinIsTTY ?? io.stdin.isTTY === true) io.stderr.write('reqflow: reading requests from stdin (end with Ctrl-D)\n');
        const bytes = await readLimited(io.stdin, 'requests from stdin');
        return loadRequestBytes(bytes, { file: STDIN_NAME, path, ...withFormat }, registry, warn);
      },
    };
  }
  const path = resolve(io.cwd, file);
  return { path, load: ({ registry, warn }) => loadRequestFile(path, registry, warn, format) };
}
