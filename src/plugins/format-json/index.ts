import { ParseError, UsageError } from '../../core/errors/index.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../core/json-depth.js';
import type { Plugin } from '../../pipeline/plugin.js';
import { jsonSyntaxError, lineColumn } from '../../core/json-error.js';
import { specsFromData } from './structured.js';

/** Parses JSON, turning V8's "at position N" into the line and column of the file. */
function parseJsonText(text: string, file: string): unknown {
  const clean = text.replace(/^\uFEFF/, '');
  try {
    return JSON.parse(clean);
  } catch (error) {
    // Said without the file's text: V8 quotes it, and it may hold a secret.
    const { message, offset } = jsonSyntaxError(clean, error);
    const { line, column } = clean.trim() === '' ? { line: 1, column: 1 } : lineColumn(clean, offset ?? clean.length);
    const what = clean.trim() === '' ? 'empty file' : `invalid JSON: ${message}`;
    throw new ParseError(file, line, column, what);
  }
}

const plugin: Plugin = {
  name: 'format-json',
  stages: {
    parse: (ctx) => {
      const data = parseJsonText(ctx.text, ctx.file);
      // Bodies and variables are written out again as JSON, which recurses (YAML: js-yaml refuses such depth itself).
      if (nestedDeeperThan(data, MAX_JSON_DEPTH)) throw new UsageError(`${ctx.file}: nested more than ${MAX_JSON_DEPTH} levels deep`);
      ctx.requests.push(...specsFromData(data, ctx.file));
    },
  },
};
export default plugin;
