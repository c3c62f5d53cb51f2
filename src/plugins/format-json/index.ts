import { ParseError } from '../../core/errors/index.js';
import type { Plugin } from '../../pipeline/plugin.js';
import { lineColumn, specsFromData } from './structured.js';

/** Parses JSON, turning V8's "at position N" into the line and column of the file. */
function parseJsonText(text: string, file: string): unknown {
  const clean = text.replace(/^\uFEFF/, '');
  try {
    return JSON.parse(clean);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const { line, column } = position ? lineColumn(clean, Number(position[1])) : clean.trim() === '' ? { line: 1, column: 1 } : lineColumn(clean, clean.length);
    const what = clean.trim() === '' ? 'empty file' : `invalid JSON: ${message.replace(/ in JSON at position \d+.*$/, '').replace(/^JSON\.parse: /, '')}`;
    throw new ParseError(file, line, column, what);
  }
}

const plugin: Plugin = {
  name: 'format-json',
  stages: {
    parse: (ctx) => {
      ctx.requests.push(...specsFromData(parseJsonText(ctx.text, ctx.file), ctx.file));
    },
  },
};
export default plugin;
