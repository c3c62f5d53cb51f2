/**
 * Selecting a value out of a body: JSONPath (jsonpath-plus: the filter expressions run in its
 * own safe interpreter, never `eval`), XPath (xpath over @xmldom/xmldom), JMESPath (as `--filter`).
 * Each library is imported when first used: a run without them never loads them.
 */
import { stringifyJsonValue } from '../core/json-exact.js';
import { UsageError } from '../core/errors/index.js';
import { searchJson } from '../core/jmespath-search.js';
import { RunTimedOut, type BoundedRunner } from '../core/bounded-run.js';

/**
 * Every value JSONPath `path` selects in `json`, in document order (the TUI's query box shows them
 * all). Its filters may hold regular expressions (`?(@.name.match(/…/))`): run by `bounded`, under its limit.
 */
export async function jsonPathAll(json: unknown, path: string, bounded: BoundedRunner): Promise<unknown[]> {
  const { JSONPath } = await import('jsonpath-plus');
  try {
    // No document (an empty or non-JSON body) selects nothing: jsonpath-plus returns undefined for it, not [].
    return bounded.run(() => (JSONPath({ path, json: json as object, wrap: true, eval: 'safe' }) as unknown[] | undefined) ?? []);
  } catch (error) {
    throw new UsageError(`${error instanceof RunTimedOut ? 'JSONPath' : 'invalid JSONPath'} ${path}: ${(error as Error).message}`);
  }
}

/** The first value JSONPath `path` selects in `json`, or undefined when nothing matches. */
export async function jsonPath(json: unknown, path: string, bounded: BoundedRunner): Promise<unknown> {
  return (await jsonPathAll(json, path, bounded))[0];
}

/**
 * The text of the first node XPath `expression` selects in the XML document `xml` (or a
 * number/string/boolean result). Parsing and selecting run by `bounded`, under its limit: the
 * xpath library sorts and positions nodes in quadratic time (`//item[1]` over 8,000 siblings took
 * 50 s), and xmldom checks an element's attributes against each other.
 */
export async function xPath(xml: string, expression: string, bounded: BoundedRunner): Promise<string | number | boolean | undefined> {
  const [{ DOMParser }, xpath] = await Promise.all([import('@xmldom/xmldom'), import('xpath')]);
  const parse = (): Node => {
    try {
      return new DOMParser({ onError: (level, message) => { if (level !== 'warning') throw new Error(message); } }).parseFromString(xml, 'text/xml') as unknown as Node;
    } catch (error) {
      throw new UsageError(`the body is not XML: ${(error as Error).message.split('\n')[0]}`);
    }
  };
  let result: unknown;
  try {
    result = bounded.run(() => xpath.select(expression, parse() as Parameters<typeof xpath.select>[1]));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${error instanceof RunTimedOut ? 'XPath' : 'invalid XPath'} ${expression}: ${(error as Error).message}`);
  }
  if (Array.isArray(result)) {
    const node = result[0];
    if (node === undefined) return undefined;
    return (node as Node).textContent ?? (node as { nodeValue?: string }).nodeValue ?? '';
  }
  return result as string | number | boolean;
}

/** JMESPath `expression` over `json` (restcli's `extract`), as `--filter` evaluates it, under `bounded`'s limit. */
export async function jmesPath(json: unknown, expression: string, bounded: BoundedRunner): Promise<unknown> {
  return searchJson(expression, json, bounded);
}

/** `a.b[0].c` over a parsed body (httpyac's `{{login.token}}`, `?? body id == 5`): plain property steps, nothing evaluated. */
export function propertyPath(value: unknown, path: string): unknown {
  let current = value;
  for (const step of path.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    if (current === null || typeof current !== 'object') return undefined;
    const key = step.startsWith('[') ? Number(step.slice(1, -1)) : step;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** A selected value as template text: strings as they are, the rest as JSON. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  // A number kept as text (a 64-bit id) is its digits, exactly as the server sent them.
  return stringifyJsonValue(value) ?? String(value);
}
