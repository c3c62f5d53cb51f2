/**
 * An OpenAPI document read with its numbers as written (`1.10`, `12345678901234567890` kept as
 * their text, src/core/json-exact.ts), made ready for the schema sampler: the values the mock
 * serves — `example`, `examples`, `default`, `enum`, `const` — keep their text, every other
 * number (a schema's `minimum: 1.0`, `maximum: 1e3`) becomes a plain number again, which the
 * sampler computes with (it ignores what is not a finite number).
 */
import { isLosslessNumber } from '../core/json-exact.js';

/** The keys whose values are served as they are written. */
const SERVED = new Set(['example', 'examples', 'default', 'enum', 'const']);

/**
 * Changes `document` in place. Dereferenced, it shares objects (a `$ref`'d schema at each use):
 * each is walked once, so the walk is as long as the document, not as its expansion.
 */
export function plainSchemaNumbers(document: object): void {
  const seen = new Set<object>();
  const queue: object[] = [document];
  for (let node = queue.pop(); node !== undefined; node = queue.pop()) {
    if (seen.has(node)) continue;
    seen.add(node);
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const value = record[key];
      if (isLosslessNumber(value)) record[key] = Number(String(value));
      else if (typeof value === 'object' && value !== null && !(SERVED.has(key) && !Array.isArray(node))) queue.push(value);
    }
  }
}
