/**
 * JSON numbers exactly as the server wrote them. `JSON.parse` turns every number into a double:
 * `12345678901234567890` becomes `12345678901234567000`, `1e400` becomes `Infinity` (written
 * `null`), `1.10` becomes `1.1` — wrong in the output, and wrong in a value a later request
 * sends (a snowflake id). Where a body holds such a number, it is parsed with `lossless-json`
 * (a maintained parser that keeps numbers as their text) and written back with it; every other
 * body keeps the native `JSON.parse`, which is many times faster. Numbers that a double holds
 * exactly stay plain numbers either way, so filters and checks compute with them as usual.
 */
import { lazyBuiltin } from './lazy-builtin.js';

type LosslessJson = typeof import('lossless-json');

/** A JSON value, and whether it holds numbers kept as text (write it with {@link stringifyJson}). */
export interface ExactJson {
  value: unknown;
  lossless: boolean;
}

/** A number token that a double gives back as written. */
function isExact(token: string): boolean {
  return String(Number(token)) === token;
}

/** A character of a JSON number token after its first: digits, `.`, `e`, `E`, `+`, `-`. */
const inNumber = (code: number): boolean => (code >= 0x30 && code <= 0x39) || code === 0x2e || code === 0x65 || code === 0x45 || code === 0x2b || code === 0x2d;

/** What only a number `JSON.parse` may not give back as written can hold: 16 digits in a row, a digit before `.`, `e` or `E`, or `-0`. */
const MAY_BE_INEXACT = /\d{16}|\d[.eE]|-0/;

/**
 * True when some number of `text` (valid JSON) would not survive `JSON.parse` + `JSON.stringify`
 * as written. A scan by character codes: strings are skipped (a number inside one is not a
 * number), and only number tokens become strings — a regular expression's matches allocated
 * for every token of every body.
 */
export function hasInexactNumbers(text: string): boolean {
  // Every number of the text a short plain integer (no run of 16 digits, no fraction or exponent,
  // no -0): each is exact. One native test settles nearly every body; a match (in a string too) is scanned.
  if (!MAY_BE_INEXACT.test(text)) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      const start = i;
      while (i + 1 < text.length && inNumber(text.charCodeAt(i + 1))) i++;
      if (!isExact(text.slice(start, i + 1))) return true;
    }
  }
  return false;
}

/** lossless-json, loaded only for a body that needs it (start-up time). */
function losslessJson(): LosslessJson {
  return lazyBuiltin<typeof import('node:module')>('node:module').createRequire(import.meta.url)('lossless-json') as LosslessJson;
}

/**
 * Parses JSON text (throws as `JSON.parse` does). Numbers a double cannot hold as written
 * come back as lossless-json `LosslessNumber`s (their `toString()` is the text).
 */
export function parseJsonExact(text: string): ExactJson {
  const value: unknown = JSON.parse(text); // validates, and is the answer for nearly every body
  if (!hasInexactNumbers(text)) return { value, lossless: false };
  const lib = losslessJson();
  try {
    return { value: lib.parse(text, null, numberAsWritten), lossless: true };
  } catch {
    return { value, lossless: false }; // duplicate keys, which lossless-json refuses: as JSON.parse reads them
  }
}

/** A key written twice in one object of a JSON text: where, and which. */
export class DuplicateJsonKey extends Error {
  constructor(
    readonly key: string,
    readonly offset: number,
  ) {
    super(`duplicate key ${JSON.stringify(key)}`);
  }
}

/**
 * A JSON text (valid: `JSON.parse` took it) read as a request file must be: a key written twice
 * in one object is {@link DuplicateJsonKey} (`JSON.parse` would keep the last and drop the other
 * silently; lossless-json refuses it), and numbers a double cannot hold come back as text, as
 * {@link parseJsonExact} gives them.
 */
export function parseJsonStrict(text: string): ExactJson {
  const lib = losslessJson();
  let lossless = false;
  try {
    const value = lib.parse(text, null, (token) => {
      const number = numberAsWritten(token);
      lossless ||= typeof number !== 'number';
      return number;
    });
    return { value, lossless };
  } catch (error) {
    const duplicate = /^Duplicate key '(.*)' encountered at position (\d+)$/s.exec((error as Error).message);
    if (duplicate) throw new DuplicateJsonKey(duplicate[1] as string, Number(duplicate[2]));
    throw error;
  }
}

/**
 * A JSON number token as a value: a plain number when a double gives it back as written, else
 * kept as its text (a lossless-json `LosslessNumber`, written back as it came by
 * {@link stringifyJsonValue}). For readers other than JSON's (YAML) that see the number's text.
 */
export function numberAsWritten(token: string): unknown {
  return isExact(token) ? Number(token) : new (losslessJson().LosslessNumber)(token);
}

/** Whether a parsed value holds a number a double did not keep: past 2^53, or out of range (YAML's reading). */
export function holdsInexactNumbers(value: unknown, depth = 0): boolean {
  if (typeof value === 'number') return !Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value));
  if (typeof value !== 'object' || value === null || depth > 1_000) return false;
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (holdsInexactNumbers(item, depth + 1)) return true;
  return false;
}

/** Where a value holds a number JSON cannot write (Infinity, NaN: YAML's `.inf`, `.nan`), as `.a[2]`, and that number; undefined when none. */
export function nonFinitePath(value: unknown, path = '', depth = 0): { path: string; value: number } | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { path, value };
  if (typeof value !== 'object' || value === null || depth > 1_000) return undefined;
  if ((value as { isLosslessNumber?: unknown }).isLosslessNumber === true) return undefined; // a number as written: finite
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((item, i) => [`[${i}]`, item]) : Object.entries(value).map(([key, item]) => [`.${key}`, item]);
  for (const [step, item] of entries) {
    const found = nonFinitePath(item, `${path}${step}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** A copy of a JSON value that keeps numbers kept as text as they are (structuredClone would make them plain objects). */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => cloneJson(item)) as T;
  if (typeof value !== 'object' || value === null || isLosslessNumber(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cloneJson(item)])) as T;
}

/** A number lossless-json kept as its text (`String(value)` is the text). */
export function isLosslessNumber(value: unknown): value is object {
  return typeof value === 'object' && value !== null && (value as { isLosslessNumber?: unknown }).isLosslessNumber === true;
}

/**
 * Whether a value (a filter's result, a query's) holds numbers kept as text. A walk through
 * `JSON.stringify`'s replacer: for the small values it is used on, cheaper than a second pass.
 */
export function holdsLosslessNumbers(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  let found = false;
  JSON.stringify(value, (_key, item: unknown) => {
    if (isLosslessNumber(item)) found = true;
    return found ? undefined : item;
  });
  return found;
}

/** A number as a map key: -0 apart from 0 (a Map treats them as one). */
type NumberKey = number | '-0';
const keyOf = (number: number): NumberKey => (Object.is(number, -0) ? '-0' : number);

/** A value whose numbers kept as text became plain numbers, for code that computes with them. */
export interface PlainNumbers {
  value: unknown;
  /**
   * A result computed from {@link value}, its numbers written as received again. `asWritten`
   * is the same computation on the original value (undefined if it failed): where both results
   * have the same shape, a number takes the original's text — exact even for two ids a double
   * cannot tell apart. Elsewhere a number equal to one text only takes it; others stay computed.
   */
  restore(result: unknown, asWritten: unknown): unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * {@link PlainNumbers} of a value, or undefined when it holds no number kept as text. Recursive:
 * callers keep values within core/json-depth.ts's limit.
 */
export function plainNumbers(value: unknown): PlainNumbers | undefined {
  if (!holdsLosslessNumbers(value)) return undefined;
  const texts = new Map<NumberKey, string | null>(); // null: two texts are this number
  const plain = (item: unknown): unknown => {
    if (isLosslessNumber(item)) {
      const text = String(item);
      const number = Number(text);
      const known = texts.get(keyOf(number));
      texts.set(keyOf(number), known === undefined || known === text ? text : null);
      return number;
    }
    if (Array.isArray(item)) return item.map(plain);
    return isRecord(item) ? Object.fromEntries(Object.entries(item).map(([key, member]) => [key, plain(member)])) : item;
  };
  const converted = plain(value);
  const { LosslessNumber } = losslessJson();
  const restore = (result: unknown, original: unknown): unknown => {
    if (typeof result === 'number') {
      if ((isLosslessNumber(original) || typeof original === 'number') && Object.is(Number(String(original)), result)) return original;
      const text = texts.get(keyOf(result));
      return text ? new LosslessNumber(text) : result;
    }
    if (Array.isArray(result)) {
      const along = Array.isArray(original) && original.length === result.length ? original : [];
      return result.map((item, index) => restore(item, along[index]));
    }
    if (!isRecord(result)) return result;
    const along = isRecord(original) ? original : {};
    return Object.fromEntries(Object.entries(result).map(([key, member]) => [key, restore(member, Object.hasOwn(along, key) ? along[key] : undefined)]));
  };
  return { value: converted, restore };
}

/** A value as JSON text, numbers kept as text written as received (filters' results, captured values). */
export function stringifyJsonValue(value: unknown, indent?: number): string | undefined {
  if (!holdsLosslessNumbers(value)) return JSON.stringify(value, null, indent);
  return losslessJson().stringify(value, null, indent);
}

/** `JSON.stringify`, writing the numbers of a lossless parse as they were received. */
export function stringifyJson(value: unknown, lossless: boolean, indent?: number): string {
  if (!lossless) return JSON.stringify(value, null, indent) ?? 'null';
  return losslessJson().stringify(value, null, indent) ?? 'null';
}
