import { ParseError } from '../../core/errors/index.js';
import type { Plugin } from '../../pipeline/plugin.js';
import { isObject, requestItems } from '../format-json/shape.js';
import { specsFromData } from '../format-json/structured.js';
import { requestSchema } from './request-schema.js';
import { expansionPastLimit } from './alias-expansion.js';
import { readingsAsWritten } from './as-written.js';

interface YamlMark {
  line: number;
  column: number;
}

/** Whether the top-level field `key` holds an anchor (`common: &common`, `"common": &c`), for the requests to use. */
function definesAnchor(text: string, key: string): boolean {
  const name = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^(?:${name}|"${name}"|'${name}')[ \\t]*:[ \\t]*&`, 'm').test(text);
}

/** Whether some request's header value is a number or true/false (js-yaml's reading of what is written). */
function holdsTypedHeader(data: unknown): boolean {
  const typed = (value: unknown): boolean => typeof value === 'number' || typeof value === 'boolean';
  return (requestItems(data) ?? []).some((item) => isObject(item) && isObject(item.headers) && Object.values(item.headers).some((value) => typed(value) || (Array.isArray(value) && value.some(typed))));
}

const plugin: Plugin = {
  name: 'format-yaml',
  stages: {
    parse: async (ctx) => {
      const yaml = await import('js-yaml');
      const text = ctx.text.replace(/^\uFEFF/, '');
      // Every reading of the file, its errors named by line and column.
      const read = (schema: import('js-yaml').Schema): unknown => {
        try {
          return yaml.load(text, { filename: ctx.file, schema });
        } catch (error) {
          const mark = (error as { mark?: YamlMark }).mark;
          const reason = (error as { reason?: string }).reason ?? (error as Error).message;
          throw new ParseError(ctx.file, (mark?.line ?? 0) + 1, (mark?.column ?? 0) + 1, `invalid YAML: ${reason}`);
        }
      };
      // The core schema and merges: no custom tags, nothing executable, a date the text written (request-schema.ts).
      const data = read(requestSchema(yaml));
      if (data === undefined || data === null) throw new ParseError(ctx.file, 1, 1, 'empty file', { hint: 'a YAML request file holds a request, a list of requests or {requests: [...]}' });
      const past = expansionPastLimit(data);
      if (past !== undefined) {
        throw new ParseError(ctx.file, 1, 1, `its aliases (*name) expand to more than ${past}`, { hint: 'a file that repeats anchors inside anchors grows exponentially (the "billion laughs"); write the values out' });
      }
      // A number a double did not keep (past 2^53, `1e400`, `1.10`) is read again for the bodies, keeping its text;
      // a header's value written as a number or true/false, with every scalar as its text, to send it as written.
      const { exact, written } = await readingsAsWritten(yaml, text, data, read, holdsTypedHeader(data));
      ctx.requests.push(...specsFromData(data, ctx.file, { exact, ...(written !== undefined ? { written } : {}), definesAnchor: (key) => definesAnchor(ctx.text, key) }));
    },
  },
};
export default plugin;
