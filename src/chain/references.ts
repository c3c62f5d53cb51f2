/**
 * Named-response references in templates:
 * - VS Code / JetBrains: `{{login.response.body.$.data.id}}` (JSONPath), `{{login.response.body.*}}`
 *   (the whole body), `{{login.response.body.//user/id}}` (XPath), `{{login.response.headers.Location}}`,
 *   `{{login.response.status}}`, and the same of `login.request` (body, headers, url, method);
 * - VS Code and kulala also read a JSON path without `$` (`{{login.response.body.data.id}}`), and
 *   kulala a header in brackets (`{{login.response.headers['Date']}}`);
 * - httpyac: `{{login.data.id}}`, a property path into the parsed JSON body of `login`.
 */
import { parseJsonExact } from '../core/json-exact.js';
import type { BoundedRunner } from '../core/bounded-run.js';
import { VariableError } from '../core/errors/index.js';
import { getHeader } from '../core/headers.js';
import { type Exchange, isXmlType, responseText } from './exchange.js';
import { asText, jsonPath, propertyPath, xPath } from './query.js';

export interface Reference {
  name: string;
  /** What follows the request name. */
  path: string;
}

/** `login.response.body.$.id` → `{name: 'login', path: 'response.body.$.id'}` when `login` is a request name. */
export function parseReference(expression: string, isRequest: (name: string) => boolean): Reference | undefined {
  const dot = expression.indexOf('.');
  if (dot <= 0) return undefined;
  const name = expression.slice(0, dot);
  return isRequest(name) ? { name, path: expression.slice(dot + 1) } : undefined;
}

/** The response body as text in its charset (`responseText`); one over the recording limit is an error naming the reference. */
function keptResponseText(exchange: Exchange, what: string): string {
  if (exchange.response.body === undefined) throw new VariableError(`${what}: the body was not kept (over 16 MiB)`, { atRequest: true });
  return responseText(exchange.response);
}

function parseJson(text: string, what: string): unknown {
  try {
    return parseJsonExact(text).value; // a 64-bit id goes on exactly as received
  } catch {
    throw new VariableError(`${what}: the body is not JSON`, { hint: 'a JSONPath ($.…) needs a JSON body; use .body.* for the whole text', atRequest: true });
  }
}

/** The value of a body selector: `*` or nothing (whole body), `$…` (JSONPath), `/…` (XPath). */
async function selectBody(text: string, selector: string, xml: boolean, what: string, bounded: BoundedRunner): Promise<string> {
  if (selector === '' || selector === '*') return text;
  if (selector.startsWith('$')) {
    const value = await jsonPath(parseJson(text, what), selector, bounded);
    if (value === undefined) throw new VariableError(`${what}: ${selector} matches nothing`, { atRequest: true });
    return asText(value);
  }
  if (selector.startsWith('/') || xml) {
    const value = await xPath(text, selector, bounded);
    if (value === undefined) throw new VariableError(`${what}: ${selector} matches nothing`, { atRequest: true });
    return String(value);
  }
  // `data.id`, `items[0].id`: a path from the root, as VS Code (jsonpath-plus reads it so) and
  // kulala (its resolver drops a leading `$.`) take it.
  return selectBody(text, selector.startsWith('[') ? `$${selector}` : `$.${selector.replace(/^\.+/, '')}`, false, what, bounded);
}

/** `Date`, `['Date']`, `["Date"]` (kulala): the header name. */
function headerName(rest: string): string {
  return /^\[\s*(['"])(.*)\1\s*\]$/s.exec(rest)?.[2] ?? rest;
}

/** Resolves a reference against the exchange of the request it names; a JSONPath runs under `bounded`'s limit. */
export async function resolveReference(reference: Reference, exchange: Exchange, bounded: BoundedRunner): Promise<string> {
  const what = `{{${reference.name}.${reference.path}}}`;
  // `headers['Date']` (kulala) reads as `headers.['Date']`.
  const match = /^(response|request)\.(body|headers|status|url|method)(?:\.(.*))?$/s.exec(reference.path.replace(/^(response|request)\.headers\[/, '$1.headers.['));
  if (!match) {
    // httpyac: a property path into the parsed JSON response body.
    const value = propertyPath(parseJson(keptResponseText(exchange, what), what), reference.path);
    if (value === undefined) throw new VariableError(`${what}: the response of "${reference.name}" has no ${reference.path}`, { atRequest: true });
    return asText(value);
  }
  const [, side, part, rest = ''] = match;
  const headers = side === 'response' ? exchange.response.headers : exchange.request.headers;
  switch (part) {
    case 'status':
      return String(exchange.response.status);
    case 'url':
      return exchange.request.url;
    case 'method':
      return exchange.request.method;
    case 'headers': {
      const name = headerName(rest);
      const value = getHeader(headers, name);
      if (value === undefined) throw new VariableError(`${what}: the ${side} of "${reference.name}" has no header ${name}`, { atRequest: true });
      return value;
    }
    default: {
      const text = side === 'response' ? keptResponseText(exchange, what) : (exchange.request.body ?? '');
      return selectBody(text, rest, isXmlType(headers), what, bounded);
    }
  }
}
