/** Reading what is imported: a file, or standard input for `-`. */
import { readFileSync } from 'node:fs';
import { UsageError } from '../core/errors/index.js';
import { parseJsonText } from '../core/json-text.js';

/** The text of `source` (`-`: standard input), with the BOM removed. */
export function readSource(source: string, stdin: () => string): string {
  if (source === '-') return stdin();
  try {
    return readFileSync(source, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `no such file: ${source}` : `cannot read ${source}: ${code ?? String(error)}`);
  }
}

/** A JSON document of a published format (`what`: "a Postman collection"), as a value to check. */
export function readJsonSource(source: string, what: string, stdin: () => string): Promise<unknown> {
  return parseJsonText(source, readSource(source, stdin), { jsonc: false, hint: `expected ${what} (JSON)` });
}

/** A plain object, else undefined: the first check of every document read from outside. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
