/**
 * Responses templated from the request: `{{request.body.$.name}}` (JSONPath, the chain's own
 * `jsonPath`), `{{request.query.page}}`, `{{request.headers.x-id}}`, `{{request.path}}`,
 * `{{request.method}}`, `{{request.body}}`, and a regex route's groups `{{params.1}}`,
 * `{{params.id}}`. A value the request lacks is empty text; other `{{…}}` are left as written,
 * so a body meant for another template engine passes through.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { asText, jsonPath } from '../chain/query.js';
import type { BoundedRunner } from '../core/bounded-run.js';
import { isLosslessNumber, parseJsonExact } from '../core/json-exact.js';

export interface MockRequest {
  method: string;
  /** The path as sent, without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  params: Record<string, string>;
  /** The server's runner of JSONPaths (their filters may hold patterns that backtrack without end). */
  bounded: BoundedRunner;
}

const EXPRESSION = /\{\{\s*((?:request|params)(?:\.[^{}]*?)?)\s*\}\}/g;
const WHOLE = /^\{\{\s*((?:request|params)(?:\.[^{}]*?)?)\s*\}\}$/;
/** Not a value: the expression is left as written. */
const UNKNOWN = Symbol('unknown');

/** The request's JSON body, parsed once per request (undefined when it is not JSON). */
const parsedBodies = new WeakMap<MockRequest, { value: unknown }>();
function jsonBody(request: MockRequest): unknown {
  let parsed = parsedBodies.get(request);
  if (!parsed) {
    try {
      parsed = { value: parseJsonExact(request.body).value }; // a 64-bit id goes back exactly as sent
    } catch {
      parsed = { value: undefined };
    }
    parsedBodies.set(request, parsed);
  }
  return parsed.value;
}

async function valueOf(expression: string, request: MockRequest): Promise<unknown> {
  const [scope = '', part = '', ...rest] = expression.split('.');
  const name = rest.join('.');
  if (scope === 'params') return part === '' ? UNKNOWN : request.params[[part, name].filter(Boolean).join('.')];
  switch (part) {
    case 'path':
      return request.path;
    case 'method':
      return request.method;
    case 'query':
      return request.query.get(name) ?? undefined;
    case 'headers': {
      const value = request.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : value;
    }
    case 'body':
      if (name === '' || name === '*') return request.body;
      if (!name.startsWith('$')) return UNKNOWN;
      return jsonBody(request) === undefined ? undefined : jsonPath(jsonBody(request), name, request.bounded);
    default:
      return UNKNOWN;
  }
}

/** Whether `text` holds anything to render (most bodies do not: they are sent as they are). */
export function isTemplate(text: string): boolean {
  return text.includes('{{');
}

/** A template as text: every expression replaced by its value's text. */
export async function renderText(template: string, request: MockRequest): Promise<string> {
  if (!isTemplate(template)) return template;
  const matches = [...template.matchAll(EXPRESSION)];
  const values = await Promise.all(matches.map((m) => valueOf(m[1] as string, request)));
  let i = 0;
  return template.replace(EXPRESSION, (whole) => {
    const value = values[i++];
    return value === UNKNOWN ? whole : asText(value);
  });
}

/**
 * A YAML body (object, array, scalar) with its strings rendered. A string that is one whole
 * expression takes the value's JSON type: `id: "{{request.body.$.id}}"` stays a number.
 */
export async function renderValue(value: unknown, request: MockRequest): Promise<unknown> {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) {
      const selected = await valueOf(whole[1] as string, request);
      return selected === UNKNOWN ? value : (selected ?? '');
    }
    return renderText(value, request);
  }
  if (Array.isArray(value)) return Promise.all(value.map((item) => renderValue(item, request)));
  // A number kept as written (`1.10`, a 64-bit id): sent as it is, not taken apart as an object.
  if (isLosslessNumber(value)) return value;
  if (typeof value === 'object' && value !== null) {
    const entries = await Promise.all(Object.entries(value).map(async ([key, item]) => [key, await renderValue(item, request)] as const));
    return Object.fromEntries(entries);
  }
  return value;
}
