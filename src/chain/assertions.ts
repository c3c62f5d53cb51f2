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
import type { BoundedRunner } from '../core/bounded-run.js';
import type { TestResult } from '../core/model.js';
import { getHeader } from '../core/headers.js';
import { isLosslessNumber, numberAsWritten, parseJsonExact, plainNumbers, stringifyJsonValue } from '../core/json-exact.js';
import { type Exchange, isJsonType, responseText } from './exchange.js';
import { execFilePattern } from './file-pattern.js';
import { asText, jsonPath, propertyPath, xPath } from './query.js';

/** `bounded` runs a pattern the file supplies (`matches`) under the run's time limit. */
type Predicate = (value: unknown, expected: unknown, bounded: BoundedRunner) => boolean;

/** A number as its text: a body's number as the server wrote it (`12345678901234567890`, `1.10`: json-exact.ts). */
const numberText = (value: unknown): string | undefined => (typeof value === 'number' ? String(value) : isLosslessNumber(value) ? String(value) : undefined);
const text = (value: unknown): string => (value === undefined || value === null ? '' : (numberText(value) ?? asText(value)));
const INTEGER = /^-?\d+$/;

/**
 * Two numbers compared exactly: integers as big integers (a double rounds 12345678901234567891 to
 * the same value as …890, and a check would pass on it), others as doubles. NaN when either is
 * no number.
 */
function compareNumbers(value: unknown, expected: unknown): number {
  const a = numberText(value) ?? (typeof value === 'string' ? value.trim() : undefined);
  const b = numberText(expected) ?? (typeof expected === 'string' ? expected.trim() : undefined);
  if (a === undefined || b === undefined || a === '' || b === '') return Number.NaN;
  if (a === b) return 0; // `1e400` is itself, though a double makes both Infinity
  if (INTEGER.test(a) && INTEGER.test(b)) {
    const [x, y] = [BigInt(a), BigInt(b)];
    return x === y ? 0 : x < y ? -1 : 1;
  }
  return Number(a) - Number(b);
}

/** An object or array with its numbers as plain numbers (`10.50` is `10.5`), to compare with a JSON the check writes. */
const plain = (value: unknown): unknown => (typeof value === 'object' && value !== null ? (plainNumbers(value)?.value ?? value) : value);

/** `==`: a number exactly; a quoted expectation as text (a body's `1.10` against `"1.10"`); else as values. */
function equal(value: unknown, expected: unknown): boolean {
  if (numberText(value) !== undefined) return numberText(expected) === undefined ? numberText(value) === expected : compareNumbers(value, expected) === 0;
  return typeof value === 'object' && value !== null ? JSON.stringify(plain(value)) === JSON.stringify(expected) : value === expected;
}

/** Truthiness, a number by its value (`0.0` is false, though kept as its text). */
const truthy = (value: unknown): boolean => (isLosslessNumber(value) ? Number(String(value)) !== 0 : Boolean(value));
const digest = (algorithm: string) => (value: unknown, expected: unknown) => createHash(algorithm).update(text(value)).digest('base64') === text(expected) || createHash(algorithm).update(text(value)).digest('hex') === text(expected);

/** httpyac's operators; the first name of each is the one shown in messages. */
const PREDICATES: ReadonlyArray<{ ids: string[]; match: Predicate; noExpected?: boolean; raw?: boolean }> = [
  { ids: ['==', '===', 'equals'], match: equal },
  { ids: ['!=', '!=='], match: (v, e) => !equal(v, e) },
  { ids: ['>='], match: (v, e) => compareNumbers(v, e) >= 0 },
  { ids: ['<='], match: (v, e) => compareNumbers(v, e) <= 0 },
  { ids: ['>'], match: (v, e) => compareNumbers(v, e) > 0 },
  { ids: ['<'], match: (v, e) => compareNumbers(v, e) < 0 },
  { ids: ['startsWith'], match: (v, e) => text(v).startsWith(text(e)) },
  { ids: ['endsWith'], match: (v, e) => text(v).endsWith(text(e)) },
  { ids: ['includes', 'contains'], match: (v, e) => (Array.isArray(v) ? v.some((item) => (numberText(item) !== undefined && numberText(e) !== undefined ? compareNumbers(item, e) === 0 : JSON.stringify(plain(item)) === JSON.stringify(plain(e)) || item === e)) : text(e) !== '' && text(v).includes(text(e))) },
  { ids: ['matches'], raw: true, match: (v, e, bounded) => execFilePattern(text(e), text(v), bounded) !== null },
  { ids: ['exists', 'isTrue'], noExpected: true, match: truthy },
  { ids: ['isFalse'], noExpected: true, match: (v) => !truthy(v) },
  { ids: ['isNumber'], noExpected: true, match: (v) => typeof v === 'number' || isLosslessNumber(v) },
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
  // A number keeps its text: compared exactly (compareNumbers), not as a double.
  if (typeof actual === 'number' || isLosslessNumber(actual)) return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(expected) ? numberAsWritten(expected) : expected;
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

/** A path asked of a body that holds no JSON document: nothing is found there, and this says why. */
class NoDocument extends Error {}

/** The body as JSON, numbers as written (a 64-bit id, `1.10`); one that is not JSON holds nothing a path can find. */
function parsedBody(exchange: Exchange): unknown {
  const body = responseText(exchange.response);
  try {
    return parseJsonExact(body).value;
  } catch {
    throw new NoDocument(`the body is not JSON${isJsonType(exchange.response.headers) ? '' : ` (${getHeader(exchange.response.headers, 'content-type') ?? 'no Content-Type'})`}`);
  }
}

/** The actual value a `??` subject names. `js` expressions go to the script sandbox (`evaluate`). */
async function subject(kind: string, argument: string, exchange: Exchange, evaluate: (expression: string) => unknown, bounded: BoundedRunner): Promise<unknown> {
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
      return argument.startsWith('$') ? jsonPath(body, argument, bounded) : propertyPath(body, argument);
    }
    case 'xpath':
      return xPath(responseText(exchange.response), argument, bounded);
    case 'js':
      return evaluate(argument);
    default:
      throw new Error(`unknown assertion subject "${kind}" (known: status, header NAME, body [PATH], duration, xpath EXPR, js EXPR)`);
  }
}

/** One `??` line (the text after `??`); a pattern or JSONPath of it runs under `bounded`'s limit (the script time limit). */
export async function evaluateAssertion(line: string, exchange: Exchange, where: { file: string; line: number }, evaluate: (expression: string) => unknown, bounded: BoundedRunner): Promise<TestResult> {
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
  let missing: string | undefined;
  try {
    actual = await subject(kind, argument, exchange, evaluate, bounded);
  } catch (error) {
    if (!(error instanceof NoDocument)) return result(false, isReqflowError(error) || error instanceof Error ? error.message : String(error), true);
    missing = error.message;
  }
  // What cannot be read — a header the response lacks, a path the body does not hold, a body
  // that is no JSON — fails every comparison, `!=` too (it is no value that differs).
  if (actual === undefined && !predicate.noExpected) {
    const expected = predicate.raw ? expectedText : JSON.stringify(convert(undefined, expectedText));
    return result(false, `expected ${left} ${predicate.ids[0]} ${expected}, got nothing: ${missing ?? `${left} is not in the response`}`);
  }
  const expected = predicate.noExpected ? undefined : predicate.raw ? expectedText : convert(actual, expectedText);
  let matched: boolean;
  try {
    matched = predicate.match(actual, expected, bounded);
  } catch (error) {
    // A `matches` pattern that is no regular expression, or runs past its limit: a failed check naming it, not the run's error (nor a hang).
    return result(false, `${predicate.ids[0]} ${expectedText}: ${(error as Error).message}`, true);
  }
  if (matched) return result(true);
  const shown = (value: unknown): string => (value === undefined ? 'nothing' : (numberText(value) ?? stringifyJsonValue(value) ?? String(value)));
  // A number's expectation is shown as written (`200`), not as the text it is compared as.
  const shownExpected = numberText(actual) !== undefined && (numberText(expected) !== undefined || expected === expectedText) ? expectedText : shown(expected);
  return result(false, predicate.noExpected ? `expected ${left} ${predicate.ids[0]}, got ${shown(actual)}` : `expected ${left} ${predicate.ids[0]} ${shownExpected}, got ${shown(actual)}`);
}

/** restcli: `expectedStatusCodes` (`200,201,2xx`), `expectedBody` (contained), `expectedBodyExact`, `expectedBodyPattern` (regex), `expectedBodyField` (`PATH VALUE`). */
export async function evaluateExpectations(annotations: Record<string, string>, exchange: Exchange, where: { file: string; line: number }, bounded: BoundedRunner): Promise<TestResult[]> {
  const results: TestResult[] = [];
  const add = (name: string, passed: boolean, message: string, error?: true): void => {
    results.push({ name, passed, ...(passed ? {} : { message }), ...where, ...(error ? { error } : {}) });
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
    try {
      const ok = execFilePattern(annotations.expectedBodyPattern, bodyText(), bounded) !== null;
      add('expectedBodyPattern', ok, `expected the body to match /${annotations.expectedBodyPattern}/, got ${JSON.stringify(bodyText().slice(0, 200))}`);
    } catch (error) {
      // An invalid pattern, or one that ran past its limit: the check cannot be evaluated.
      add('expectedBodyPattern', false, `/${annotations.expectedBodyPattern}/: ${(error as Error).message}`, true);
    }
  }
  for (const [key, spec] of Object.entries(annotations)) {
    if (key !== 'expectedBodyField' && !key.startsWith('expectedBodyField.')) continue;
    const match = /^(\S+)\s*(?:=\s*|\s+)(.*)$/s.exec(spec);
    if (!match) {
      add(`expectedBodyField ${spec}`, false, 'write: expectedBodyField $.path VALUE');
      continue;
    }
    const path = match[1] as string;
    let document: unknown;
    try {
      // Numbers as written: a 64-bit id is compared exactly, not as the double JSON.parse makes of it.
      document = parseJsonExact(bodyText()).value;
    } catch {
      // A body that is no JSON holds nothing a path finds: "got nothing" below.
    }
    let actual: unknown;
    try {
      actual = path.startsWith('$') ? await jsonPath(document, path, bounded) : propertyPath(document, path);
    } catch (error) {
      // An invalid JSONPath, or one that ran past its limit: the check cannot be evaluated, and says why (not "got nothing").
      add(`expectedBodyField ${path}`, false, (error as Error).message, true);
      continue;
    }
    const expected = convert(actual, (match[2] as string).trim());
    add(`expectedBodyField ${path}`, equal(actual, expected), `expected ${path} to be ${stringifyJsonValue(expected)}, got ${actual === undefined ? 'nothing' : stringifyJsonValue(actual)}`);
  }
  return results;
}
