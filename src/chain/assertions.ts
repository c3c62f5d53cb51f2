/**
 * Checks without scripts: httpyac's `??` lines and restcli's expectations, evaluated against an
 * exchange. Each gives a {@link TestResult} whose failure says expected against actual.
 *
 *   ?? status == 200            ?? header content-type includes json     ?? duration < 500
 *   ?? body $.id == 5           ?? body id == 5 (property path)          ?? body == "ok"
 *   ?? xpath //user/id == 7     ?? js response.parsedBody.items.length > 2
 */
import { createHash } from 'node:crypto';
import { isReqflowError } from '../core/errors/index.js';
import type { TestResult } from '../core/model.js';
import { getHeader } from '../core/headers.js';
import { type Exchange, isJsonType, responseText } from './exchange.js';
import { asText, jsonPath, propertyPath, xPath } from './query.js';

type Predicate = (value: unknown, expected: unknown) => boolean;

const text = (value: unknown): string => (value === undefined || value === null ? '' : asText(value));
const numeric = (value: unknown): number => (typeof value === 'number' ? value : Number(value));
const digest = (algorithm: string) => (value: unknown, expected: unknown) => createHash(algorithm).update(text(value)).digest('base64') === text(expected) || createHash(algorithm).update(text(value)).digest('hex') === text(expected);

/** httpyac's operators; the first name of each is the one shown in messages. */
const PREDICATES: ReadonlyArray<{ ids: string[]; match: Predicate; noExpected?: boolean; raw?: boolean }> = [
  { ids: ['==', '===', 'equals'], match: (v, e) => (typeof v === 'object' && v !== null ? JSON.stringify(v) === JSON.stringify(e) : v === e) },
  { ids: ['!=', '!=='], match: (v, e) => (typeof v === 'object' && v !== null ? JSON.stringify(v) !== JSON.stringify(e) : v !== e) },
  { ids: ['>='], match: (v, e) => numeric(v) >= numeric(e) },
  { ids: ['<='], match: (v, e) => numeric(v) <= numeric(e) },
  { ids: ['>'], match: (v, e) => numeric(v) > numeric(e) },
  { ids: ['<'], match: (v, e) => numeric(v) < numeric(e) },
  { ids: ['startsWith'], match: (v, e) => text(v).startsWith(text(e)) },
  { ids: ['endsWith'], match: (v, e) => text(v).endsWith(text(e)) },
  { ids: ['includes', 'contains'], match: (v, e) => (Array.isArray(v) ? v.some((item) => JSON.stringify(item) === JSON.stringify(e) || item === e) : text(e) !== '' && text(v).includes(text(e))) },
  { ids: ['matches'], raw: true, match: (v, e) => new RegExp(text(e), 'u').test(text(v)) },
  { ids: ['exists', 'isTrue'], noExpected: true, match: (v) => Boolean(v) },
  { ids: ['isFalse'], noExpected: true, match: (v) => !v },
  { ids: ['isNumber'], noExpected: true, match: (v) => typeof v === 'number' },
  { ids: ['isBoolean'], noExpected: true, match: (v) => typeof v === 'boolean' },
  { ids: ['isString'], noExpected: true, match: (v) => typeof v === 'string' },
  { ids: ['isArray'], noExpected: true, match: (v) => Array.isArray(v) },
  { ids: ['sha256'], raw: true, match: digest('sha256') },
  { ids: ['sha512'], raw: true, match: digest('sha512') },
  { ids: ['md5'], raw: true, match: digest('md5') },
];

const OPERATOR = new RegExp(`\\s(${PREDICATES.flatMap((p) => p.ids).map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?:\\s+(.*))?$`, 'u');

/** The expected text, typed like the actual value (httpyac converts it so). */
function convert(actual: unknown, expected: string): unknown {
  const unquoted = /^"(.*)"$/s.exec(expected)?.[1] ?? /^'(.*)'$/s.exec(expected)?.[1];
  if (unquoted !== undefined) return unquoted;
  if (typeof actual === 'number') return Number(expected);
  if (typeof actual === 'boolean') return expected === 'true';
  if (actual === null && expected === 'null') return null;
  if (typeof actual === 'object' && actual !== null) {
    try {
      return JSON.parse(expected) as unknown;
    } catch {
      return expected;
    }
  }
  return expected;
}

function parsedBody(exchange: Exchange): unknown {
  const body = responseText(exchange.response);
  if (!isJsonType(exchange.response.headers)) {
    try {
      return JSON.parse(body) as unknown;
    } catch {
      return body;
    }
  }
  return JSON.parse(body) as unknown;
}

/** The actual value a `??` subject names. `js` expressions go to the script sandbox (`evaluate`). */
async function subject(kind: string, argument: string, exchange: Exchange, evaluate: (expression: string) => unknown): Promise<unknown> {
  switch (kind) {
    case 'status':
      return exchange.response.status;
    case 'duration':
      return Math.round(exchange.durationMs);
    case 'header':
      return getHeader(exchange.response.headers, argument);
    case 'body': {
      if (argument === '') return responseText(exchange.response);
      const body = parsedBody(exchange);
      return argument.startsWith('$') ? jsonPath(body, argument) : propertyPath(body, argument);
    }
    case 'xpath':
      return xPath(responseText(exchange.response), argument);
    case 'js':
      return evaluate(argument);
    default:
      throw new Error(`unknown assertion subject "${kind}" (known: status, header NAME, body [PATH], duration, xpath EXPR, js EXPR)`);
  }
}

/** One `??` line (the text after `??`). */
export async function evaluateAssertion(line: string, exchange: Exchange, where: { file: string; line: number }, evaluate: (expression: string) => unknown): Promise<TestResult> {
  const result = (passed: boolean, message?: string, error?: boolean): TestResult => ({ name: line, passed, ...(message ? { message } : {}), ...where, ...(error ? { error } : {}) });
  const operator = OPERATOR.exec(line);
  if (!operator) return result(false, `no operator in "?? ${line}" (known: ${PREDICATES.map((p) => p.ids[0]).join(', ')})`, true);
  const left = line.slice(0, operator.index).trim();
  const space = left.search(/\s/);
  const kind = space < 0 ? left : left.slice(0, space);
  const argument = space < 0 ? '' : left.slice(space + 1).trim();
  const predicate = PREDICATES.find((p) => p.ids.includes(operator[1] as string));
  if (!predicate) return result(false, `unknown operator ${operator[1]}`, true);
  const expectedText = (operator[2] ?? '').trim();
  let actual: unknown;
  try {
    actual = await subject(kind, argument, exchange, evaluate);
  } catch (error) {
    return result(false, isReqflowError(error) || error instanceof Error ? error.message : String(error), true);
  }
  const expected = predicate.noExpected ? undefined : predicate.raw ? expectedText : convert(actual, expectedText);
  if (predicate.match(actual, expected)) return result(true);
  const shown = (value: unknown): string => (value === undefined ? 'nothing' : JSON.stringify(value) ?? String(value));
  return result(false, predicate.noExpected ? `expected ${left} ${predicate.ids[0]}, got ${shown(actual)}` : `expected ${left} ${predicate.ids[0]} ${shown(expected)}, got ${shown(actual)}`);
}

/** restcli: `expectedStatusCodes` (`200,201,2xx`), `expectedBody` (contained), `expectedBodyExact`, `expectedBodyPattern` (regex), `expectedBodyField` (`PATH VALUE`). */
export async function evaluateExpectations(annotations: Record<string, string>, exchange: Exchange, where: { file: string; line: number }): Promise<TestResult[]> {
  const results: TestResult[] = [];
  const add = (name: string, passed: boolean, message: string): void => {
    results.push({ name, passed, ...(passed ? {} : { message }), ...where });
  };
  let text: string | undefined;
  // Decoded only for an expectation that reads it (most requests have none).
  const bodyText = (): string => (text ??= responseText(exchange.response));
  const status = exchange.response.status;
  const codes = annotations.expectedStatusCodes;
  if (codes !== undefined) {
    const wanted = codes.split(/[\s,]+/).filter(Boolean);
    const ok = wanted.some((code) => (/^\dxx$/i.test(code) ? Math.floor(status / 100) === Number(code[0]) : Number(code) === status));
    add(`expectedStatusCodes ${wanted.join(',')}`, ok, `expected status ${wanted.join(' or ')}, got ${status}`);
  }
  if (annotations.expectedBody !== undefined) add('expectedBody', bodyText().includes(annotations.expectedBody), `expected the body to contain ${JSON.stringify(annotations.expectedBody)}, got ${JSON.stringify(bodyText().slice(0, 200))}`);
  if (annotations.expectedBodyExact !== undefined) add('expectedBodyExact', bodyText() === annotations.expectedBodyExact, `expected the body ${JSON.stringify(annotations.expectedBodyExact)}, got ${JSON.stringify(bodyText().slice(0, 200))}`);
  if (annotations.expectedBodyPattern !== undefined) {
    let ok = false;
    let message = '';
    try {
      ok = new RegExp(annotations.expectedBodyPattern, 'u').test(bodyText());
      message = `expected the body to match /${annotations.expectedBodyPattern}/, got ${JSON.stringify(bodyText().slice(0, 200))}`;
    } catch (error) {
      message = `invalid pattern: ${(error as Error).message}`;
    }
    add('expectedBodyPattern', ok, message);
  }
  for (const [key, spec] of Object.entries(annotations)) {
    if (key !== 'expectedBodyField' && !key.startsWith('expectedBodyField.')) continue;
    const match = /^(\S+)\s*(?:=\s*|\s+)(.*)$/s.exec(spec);
    if (!match) {
      add(`expectedBodyField ${spec}`, false, 'write: expectedBodyField $.path VALUE');
      continue;
    }
    const path = match[1] as string;
    let actual: unknown;
    try {
      const parsed = JSON.parse(bodyText()) as unknown;
      actual = path.startsWith('$') ? await jsonPath(parsed, path) : propertyPath(parsed, path);
    } catch {
      actual = undefined;
    }
    const expected = convert(actual, (match[2] as string).trim());
    add(`expectedBodyField ${path}`, JSON.stringify(actual) === JSON.stringify(expected), `expected ${path} to be ${JSON.stringify(expected)}, got ${actual === undefined ? 'nothing' : JSON.stringify(actual)}`);
  }
  return results;
}
