/**
 * The readings of a YAML document beside the request schema's (request-schema.ts), for what is
 * sent as written: bodies with their numbers as written (`1.10`, `12345678901234567890`: exact-numbers.ts),
 * header values with every scalar as its text (`X-Version: 1.10`, `X-Zip: 0755`). Request files
 * and mock files both read so; each extra reading is made only for a document that needs it.
 */
import type { Schema } from 'js-yaml';
import { holdsInexactNumbers } from '../../core/json-exact.js';
import { writtenScalarsSchema } from './request-schema.js';

type JsYaml = typeof import('js-yaml');

/**
 * What js-yaml may read otherwise than written: 16 digits in a row, a digit before `.`, `e` or `E`
 * (`1.10`, `1e3`, `1e400`), `-0`, `.inf`, `.nan`. A match anywhere (a URL's `127.0.0.1` too) only
 * costs a second reading.
 */
const MAY_BE_INEXACT = /\d{16}|\d[.eE]|-0|\.(?:inf|nan)\b/i;

export interface WrittenReadings {
  /** The document with numbers a double cannot hold kept as written (for bodies); `data` itself when it holds none. */
  exact: unknown;
  /** The document with every plain scalar as its text (for header values), when asked for. */
  written?: unknown;
}

/**
 * `data` (`text` read with the request schema) read again as {@link WrittenReadings} says; `read`
 * reads `text` with a schema, its errors the caller's; `scalarsAsText` asks for `written`.
 */
export async function readingsAsWritten(yaml: JsYaml, text: string, data: unknown, read: (schema: Schema) => unknown, scalarsAsText: boolean): Promise<WrittenReadings> {
  const exact = holdsInexactNumbers(data) || MAY_BE_INEXACT.test(text) ? read((await import('./exact-numbers.js')).exactNumbersSchema(yaml)) : data;
  return scalarsAsText ? { exact, written: read(writtenScalarsSchema(yaml)) } : { exact };
}
