/**
 * An OpenAPI document read with its numbers as written (`1.10`, `12345678901234567890` kept as
 * their text, src/core/json-exact.ts), made ready for the schema sampler: the values an import
 * sends and a mock serves — `example`, `examples`, `x-example` (Swagger 2.0), `default`, `enum`,
 * `const` — keep their text, every other number (a schema's `minimum: 1.0`, `maximum: 1e3`)
 * becomes a plain number again, which the sampler computes with (it ignores what is not a finite
 * number) and the validator checks.
 */
import { isLosslessNumber } from '../../core/json-exact.js';

/** The keys whose values are sent or served as they are written. */
const SERVED = new Set(['example', 'examples', 'x-example', 'default', 'enum', 'const']);

/** The keys whose value maps names to schemas: a property named `default` there is a schema, not a value. */
const NAMED = new Set(['properties', 'patternProperties', 'schemas', 'definitions', '$defs']);

/**
 * Changes `document` in place. Dereferenced, it shares objects (a `$ref`'d schema at each use):
 * each is walked once, so the walk is as long as the document, not as its expansion.
 */
export function plainSchemaNumbers(document: object): void {
  const seen = new Set<object>();
  const names = new Set<object>(); // the objects whose keys are names (NAMED's values)
  const queue: object[] = [document];
  for (let node = queue.pop(); node !== undefined; node = queue.pop()) {
    if (seen.has(node)) continue;
    seen.add(node);
    const record = node as Record<string, unknown>;
    const keywords = !Array.isArray(node) && !names.has(node);
    for (const key of Object.keys(record)) {
      // A served value stays as written, a number (`example: 1.10`, `default: 12345678901234567891`) as much as an object.
      if (keywords && SERVED.has(key)) continue;
      const value = record[key];
      if (isLosslessNumber(value)) record[key] = Number(String(value));
      else if (typeof value === 'object' && value !== null) {
        if (keywords && NAMED.has(key)) names.add(value);
        queue.push(value);
      }
    }
  }
}

/**
 * A copy of `value` whose numbers kept as text are strings of that text: what the sampler's XML
 * writer needs (it would write a kept number as an object, `<value>1.10</value>…`), and an XML
 * text is the same either way. `copies` is shared between calls, so a schema and the document
 * its `$ref`s point into are copied once and stay one graph; objects shared stay shared. The
 * document's nesting is bounded (spec-files.ts), so the recursion is too.
 */
export function numbersAsText<T>(value: T, copies: Map<object, unknown>): T {
  if (isLosslessNumber(value)) return String(value) as T;
  if (typeof value !== 'object' || value === null) return value;
  const known = copies.get(value);
  if (known !== undefined) return known as T;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
  copies.set(value, copy);
  if (Array.isArray(copy)) for (const item of value as unknown[]) copy.push(numbersAsText(item, copies));
  else for (const [key, item] of Object.entries(value)) Object.defineProperty(copy, key, { value: numbersAsText(item, copies), enumerable: true, writable: true, configurable: true });
  return copy as T;
}
