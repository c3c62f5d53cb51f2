/**
 * The body a `--from-openapi` route serves for an example under its media type. A JSON type
 * takes any value (served as JSON). Any other type is text: a string example is served as it is,
 * a number or boolean as written; an object or array has no form there that the spec gives —
 * OpenAPI writes an XML or text example as the text itself — so the spec is refused at start-up
 * naming the operation, the status and the type, never served as `[object Object]`.
 */
import { isJsonContentType } from '../core/content-type.js';
import { UsageError } from '../core/errors/index.js';
import { isLosslessNumber } from '../core/json-exact.js';


/** Where a body came from, for the refusal: `where`, the spec and the response (`spec.yaml: GET /pets (listPets), response 200`); `sampled`, made from the schema. */
interface BodyOrigin {
  where: () => string;
  sampled: boolean;
}

export function servedBody(body: unknown, type: string, origin: BodyOrigin): unknown {
  if (isJsonContentType(type) || typeof body === 'string') return body;
  if (typeof body !== 'object' || body === null || isLosslessNumber(body)) return String(body);
  const what = `${Array.isArray(body) ? 'an array' : 'an object'}${origin.sampled ? ' (made from its schema)' : ''}`;
  throw new UsageError(`${origin.where()}: its ${type} example is ${what}, which ${type} has no form for: not served`, {
    hint: `write the example as the ${type} text to serve (a string), or give the response an application/json example`,
  });
}
