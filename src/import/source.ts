/** Reading what is imported: a file, or standard input for `-`, within the import's size limit. */
import { closeSync, fstatSync, openSync } from 'node:fs';
import { isatty } from 'node:tty';
import { UsageError } from '../core/errors/index.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../core/json-depth.js';
import { isLosslessNumber } from '../core/json-exact.js';
import { parseJsonText } from '../core/json-text.js';
import { notAFile } from '../core/not-a-file.js';
import { readAtMost } from '../core/read-bounded.js';
import { readStreamAtMost, type PastLimit } from '../core/read-stream-at-most.js';
import { decode } from '../core/read-config-file.js';

/**
 * Why a file past `maxBytes` is not imported (`reqflow mock`: not read), and the hint: its size
 * when known (a file's stat), else what arrived (a pipe).
 */
export function importLimitWords({ bytes, stated }: PastLimit, maxBytes: number, reader: 'import' | 'mock' = 'import'): { why: string; hint: string } {
  const count = (n: number): string => `${n.toLocaleString('en')} bytes`;
  return {
    why: `${stated ? `it is ${count(bytes)}` : `more than ${count(maxBytes)} arrived`}, over the ${reader} limit of ${count(maxBytes)}: ${reader === 'import' ? 'not imported' : 'not read'}`,
    hint: `raise it with --max-size BYTES${stated ? ` (--max-size ${bytes})` : ''}: a document takes several times its size in memory`,
  };
}

/** The refusal of `name` (a file, or standard input) past `maxBytes`, exit 2. */
function pastImportLimit(name: string, maxBytes: number): (past: PastLimit) => UsageError {
  return (past) => {
    const { why, hint } = importLimitWords(past, maxBytes);
    return new UsageError(`${name}: ${why}`, { hint });
  };
}

/**
 * Standard input as text, at most `maxBytes`: a terminal (typed, then Ctrl-D), a pipe, a socket
 * (what a parent process's `spawn` gives) or a file, whose size is checked first — not a device
 * such as /dev/zero, which never ends. Read as a stream: a pipe's descriptor may be non-blocking
 * (a synchronous read of a pipe still being written failed with EAGAIN).
 */
export async function readStdin(maxBytes: number): Promise<string> {
  const stat = fstatSync(0);
  if (!isatty(0) && (stat.isCharacterDevice() || stat.isBlockDevice())) throw new UsageError('cannot read standard input: it is a device, not a file or a pipe');
  const refuse = pastImportLimit('standard input', maxBytes);
  if (stat.isFile() && stat.size > maxBytes) throw refuse({ bytes: stat.size, stated: true });
  return (await readStreamAtMost(process.stdin, maxBytes, refuse)).toString('utf8');
}

/** The bytes of the file `path`, at most `maxBytes` (exit 2 naming it as `name` past them); other failures are thrown as `fs` throws them. */
export function readImportedFile(path: string, maxBytes: number, name = path): Buffer {
  const fd = openSync(path, 'r');
  try {
    return readAtMost(fd, maxBytes, pastImportLimit(name, maxBytes));
  } finally {
    closeSync(fd);
  }
}

/** Where an importer reads its source: standard input for `-`, and the limit of each file. */
export interface SourceReader {
  stdin(): Promise<string>;
  maxBytes: number;
}

/**
 * The text of `source` (`-`: standard input), with the BOM removed: UTF-8, or UTF-16 with its
 * mark (Windows' PowerShell writes it; newman reads it), decoded as an environment file is.
 */
export async function readSource(source: string, reader: SourceReader): Promise<string> {
  if (source === '-') return reader.stdin();
  const kind = notAFile(source, { pipe: true }); // named on the command line: `<(…)` is read
  if (kind) throw new UsageError(`cannot read ${source}: it is ${kind}, not a file`);
  let bytes: Buffer;
  try {
    bytes = readImportedFile(source, reader.maxBytes);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `no such file: ${source}` : `cannot read ${source}: ${code ?? String(error)}`);
  }
  return decode(bytes, source).replace(/^\uFEFF/, '');
}

/** A JSON document of a published format (`what`: "a Postman collection"), as a value to check. */
export async function readJsonSource(source: string, what: string, reader: SourceReader): Promise<unknown> {
  const value = await parseJsonText(source, await readSource(source, reader), { jsonc: false, hint: `expected ${what} (JSON)` });
  refuseDeepNesting(value, source);
  return value;
}

/** Why a document nested past {@link MAX_JSON_DEPTH} is refused (`reqflow mock --from-openapi`: not read). */
export function deepNestingWords(reader: 'import' | 'mock' = 'import'): string {
  return `nested more than ${MAX_JSON_DEPTH} levels deep: ${reader === 'import' ? 'not imported' : 'not read'}`;
}

/** The importers (and the parsers they call) recurse through the document: one nested past any real one is refused before. */
function refuseDeepNesting(value: unknown, source: string): void {
  if (nestedDeeperThan(value, MAX_JSON_DEPTH)) throw new UsageError(`${source === '-' ? 'standard input' : source}: ${deepNestingWords()}`);
}

/** A plain object, else undefined: the first check of every document read from outside (a number kept as its text is a number, not an object). */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value) ? (value as Record<string, unknown>) : undefined;
}
