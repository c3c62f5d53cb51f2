/**
 * The fields of an imported document (a Postman collection, a HAR) that its importer reads, and
 * their types, checked once where the document enters: a header name that is a number, a body
 * that is an object where text belongs, an item that is a string, is exit 2 naming the file and
 * the field (`api.json: item[0].request.header[0].key: expected text, got a number`), not a
 * TypeError deep in the importer (exit 70). A field not listed is not read, and not checked;
 * a listed one may be missing or `null` (read as missing) unless the shape requires it.
 */
import { UsageError } from '../core/errors/index.js';

export type Shape =
  | 'text'
  | 'number'
  | 'boolean'
  /** A list of values of one shape. */
  | { list: Shape }
  /** An object: the shapes of the fields read, and which of them must be there. */
  | { fields: Readonly<Record<string, Shape>>; required?: readonly string[] }
  /** Any of these (the first that fits). */
  | { either: readonly Shape[] }
  /** A shape that holds itself (a Postman folder holds items). */
  | (() => Shape);

const described = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : typeof value === 'string' ? 'text' : `a ${typeof value}`);

const expected = (shape: Shape): string => {
  if (typeof shape === 'function') return expected(shape());
  if (typeof shape === 'string') return shape === 'text' ? 'text' : `a ${shape}`;
  if ('list' in shape) return 'a list';
  if ('fields' in shape) return 'an object';
  return shape.either.map(expected).join(' or ');
};

/** The first place where `value` is not of `shape`, with what was expected there; undefined when it fits. */
function mismatch(value: unknown, shape: Shape, path: string): { path: string; expected: string; value: unknown } | undefined {
  if (typeof shape === 'function') return mismatch(value, shape(), path);
  if (typeof shape === 'string') return (shape === 'text' ? typeof value === 'string' : typeof value === shape) ? undefined : { path, expected: expected(shape), value };
  if ('either' in shape) {
    const fits = shape.either.find((one) => sameKind(value, one));
    return fits === undefined ? { path, expected: expected(shape), value } : mismatch(value, fits, path);
  }
  if ('list' in shape) {
    if (!Array.isArray(value)) return { path, expected: 'a list', value };
    for (let i = 0; i < value.length; i++) {
      const found = mismatch(value[i], shape.list, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { path, expected: 'an object', value };
  const record = value as Record<string, unknown>;
  for (const [key, field] of Object.entries(shape.fields)) {
    const at = path === '' ? key : `${path}.${key}`;
    const item = Object.hasOwn(record, key) ? record[key] : undefined;
    if (item === undefined || item === null) {
      if (shape.required?.includes(key)) return { path: at, expected: expected(field), value: item };
      continue;
    }
    const found = mismatch(item, field, at);
    if (found) return found;
  }
  return undefined;
}

/** Whether `value` is of the kind `shape` is (text, a list, an object, …), not looking inside: how `either` picks its branch. */
function sameKind(value: unknown, shape: Shape): boolean {
  if (typeof shape === 'function') return sameKind(value, shape());
  if (typeof shape === 'string') return shape === 'text' ? typeof value === 'string' : typeof value === shape;
  if ('list' in shape) return Array.isArray(value);
  if ('fields' in shape) return typeof value === 'object' && value !== null && !Array.isArray(value);
  return shape.either.some((one) => sameKind(value, one));
}

/** `value` as the document type `T` when it fits `shape`; else exit 2 naming `source` and the first field that does not (`hint`: what the file should be). */
export function checkShape<T>(value: unknown, shape: Shape, source: string, hint: string): T {
  const found = mismatch(value, shape, '');
  if (found === undefined) return value as T;
  const where = found.path === '' ? '' : `${found.path}: `;
  throw new UsageError(`${source === '-' ? 'standard input' : source}: ${where}expected ${found.expected}, got ${found.value === undefined ? 'nothing' : described(found.value)}`, { hint });
}
