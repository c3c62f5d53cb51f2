/** Reading what is imported: a file, or standard input for `-`. */
import { fstatSync, readFileSync } from 'node:fs';
import { isatty } from 'node:tty';
import { UsageError } from '../core/errors/index.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../core/json-depth.js';
import { parseJsonText } from '../core/json-text.js';
import { notAFile } from '../core/not-a-file.js';
import { decode } from '../core/read-config-file.js';

/**
 * Standard input as text: a terminal (typed, then Ctrl-D), a pipe, a socket (what a parent
 * process's `spawn` gives) or a file — not a device such as /dev/zero, which never ends.
 */
export function readStdin(): string {
  const stat = fstatSync(0);
  if (!isatty(0) && (stat.isCharacterDevice() || stat.isBlockDevice())) throw new UsageError('cannot read standard input: it is a device, not a file or a pipe');
  return readFileSync(0, 'utf8');
}

/**
 * The text of `source` (`-`: standard input), with the BOM removed: UTF-8, or UTF-16 with its
 * mark (Windows' PowerShell writes it; newman reads it), decoded as an environment file is.
 */
export function readSource(source: string, stdin: () => string): string {
  if (source === '-') return stdin();
  const kind = notAFile(source, { pipe: true }); // named on the command line: `<(…)` is read
  if (kind) throw new UsageError(`cannot read ${source}: it is ${kind}, not a file`);
  let bytes: Buffer;
  try {
    bytes = readFileSync(source);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `no such file: ${source}` : `cannot read ${source}: ${code ?? String(error)}`);
  }
  return decode(bytes, source).replace(/^\uFEFF/, '');
}

/** A JSON document of a published format (`what`: "a Postman collection"), as a value to check. */
export async function readJsonSource(source: string, what: string, stdin: () => string): Promise<unknown> {
  const value = await parseJsonText(source, readSource(source, stdin), { jsonc: false, hint: `expected ${what} (JSON)` });
  refuseDeepNesting(value, source);
  return value;
}

/** The importers (and the parsers they call) recurse through the document: one nested past any real one is refused before. */
export function refuseDeepNesting(value: unknown, source: string): void {
  if (nestedDeeperThan(value, MAX_JSON_DEPTH)) throw new UsageError(`${source === '-' ? 'standard input' : source}: nested more than ${MAX_JSON_DEPTH} levels deep: not imported`);
}

/** A plain object, else undefined: the first check of every document read from outside. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
