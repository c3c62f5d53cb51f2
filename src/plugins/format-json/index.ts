import { ParseError, UsageError } from '../../core/errors/index.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../core/json-depth.js';
import type { Plugin } from '../../pipeline/plugin.js';
import { jsonSyntaxError, lineColumn } from '../../core/json-error.js';
import { DuplicateJsonKey, hasInexactNumbers, parseJsonStrict } from '../../core/json-exact.js';
import { specsFromData } from './structured.js';

/**
 * Parses JSON, turning V8's "at position N" into the line and column of the file. A key written
 * twice in one object is refused there too (`JSON.parse` would drop the first silently); the
 * exact reading keeps the numbers a double cannot hold, for the bodies (`specsFromData`).
 */
function parseJsonText(text: string, file: string): { data: unknown; exact: unknown } {
  const clean = text.replace(/^\uFEFF/, '');
  let data: unknown;
  try {
    data = JSON.parse(clean);
  } catch (error) {
    // Said without the file's text: V8 quotes it, and it may hold a secret.
    const { message, offset } = jsonSyntaxError(clean, error);
    const { line, column } = clean.trim() === '' ? { line: 1, column: 1 } : lineColumn(clean, offset ?? clean.length);
    const what = clean.trim() === '' ? 'empty file' : `invalid JSON: ${message}`;
    throw new ParseError(file, line, column, what);
  }
  // Bodies and variables are written out again as JSON, which recurses, and so does the exact
  // reading below (YAML: js-yaml refuses such depth itself).
  if (nestedDeeperThan(data, MAX_JSON_DEPTH)) throw new UsageError(`${file}: nested more than ${MAX_JSON_DEPTH} levels deep`);
  // Nearly every file has neither a key written twice nor a number a double cannot hold: it is
  // not read again (lossless-json's loading is most of a small file's cost).
  if (keysWritten(clean) === keysRead(data) && !hasInexactNumbers(clean)) return { data, exact: data };
  try {
    const { value, lossless } = parseJsonStrict(clean);
    return { data, exact: lossless ? value : data };
  } catch (error) {
    if (!(error instanceof DuplicateJsonKey)) throw error;
    const { line, column } = lineColumn(clean, error.offset);
    throw new ParseError(file, line, column, `${error.message} in one object (only the last would be read)`, { hint: 'write each key once; a header sent on several lines is a list: "X-A": ["1", "2"]' });
  }
}

/** How many keys the text writes: strings followed by `:` (a scan; strings skipped whole). */
function keysWritten(text: string): number {
  let keys = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== 0x22) continue;
    for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    let j = i + 1;
    while (j < text.length && /\s/.test(text[j] as string)) j++;
    if (text[j] === ':') keys++;
  }
  return keys;
}

/** How many keys the parsed value holds: fewer than written when one was written twice in an object. */
function keysRead(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let keys = 0;
  if (Array.isArray(value)) for (const item of value) keys += keysRead(item);
  else for (const key in value) keys += 1 + keysRead((value as Record<string, unknown>)[key]);
  return keys;
}

const plugin: Plugin = {
  name: 'format-json',
  stages: {
    parse: (ctx) => {
      const { data, exact } = parseJsonText(ctx.text, ctx.file);
      ctx.requests.push(...specsFromData(data, ctx.file, { exact }));
    },
  },
};
export default plugin;
