/**
 * The shape of a YAML/JSON request document — one request, an array of them, or
 * `{ "requests": [...] }` — shared by the parser and by folder searches, which must tell a
 * request file from any other JSON or YAML without parsing it as requests.
 */

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The request items of a parsed document, or undefined when its shape holds none. */
export function requestItems(data: unknown): unknown[] | undefined {
  return Array.isArray(data) ? data : isObject(data) && Array.isArray(data.requests) ? data.requests : isObject(data) ? [data] : undefined;
}

/**
 * Whether a parsed document is meant as requests: `{ "requests": [...] }`, or a request object
 * (one with a `url`) alone or in an array. Any other object — a JSON Schema, a config file —
 * is not, even when a `url` sits deeper in it.
 */
export function holdsRequests(data: unknown): boolean {
  if (isObject(data) && Array.isArray(data.requests)) return true;
  return (requestItems(data) ?? []).some((item) => isObject(item) && Object.hasOwn(item, 'url'));
}
