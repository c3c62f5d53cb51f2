/**
 * The request's checks as k6 `check()` entries where k6 can say the same — status, a header,
 * the body, a JSON field by a plain path, the duration, restcli's `expected*` — and the list of
 * those it cannot (XPath, `js` expressions, response scripts), for a comment in the script.
 * The generated functions call the helpers of {@link CHECK_HELPERS}, which mirror reqflow's
 * comparison rules (the expected text typed like the actual value).
 */
import type { RequestSpec } from '../../core/model.js';

export interface K6Check {
  name: string;
  /** A JavaScript function of the response `r`. */
  fn: string;
}

export interface TranslatedChecks {
  checks: K6Check[];
  untranslated: string[];
}

/** Helpers the check functions use; written into the script once. */
export const CHECK_HELPERS = `function expectedLike(actual, text) {
  const quoted = /^"([\\s\\S]*)"$/.exec(text) || /^'([\\s\\S]*)'$/.exec(text);
  if (quoted) return quoted[1];
  if (typeof actual === 'number') return Number(text);
  if (typeof actual === 'boolean') return text === 'true';
  if (actual === null && text === 'null') return null;
  if (typeof actual === 'object' && actual !== null) {
    try { return JSON.parse(text); } catch (e) { return text; }
  }
  return text;
}
function same(a, b) {
  return typeof a === 'object' && a !== null ? JSON.stringify(a) === JSON.stringify(b) : a === b;
}
function asText(value) {
  return value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
}
function header(r, name) {
  const key = Object.keys(r.headers).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : r.headers[key];
}
function json(r, path) {
  try { return path === '' ? r.json() : r.json(path); } catch (e) { return undefined; }
}`;

const q = (text: string): string => JSON.stringify(text);

/** A JSONPath (`$.a.b[0]`) or property path (`a.b.0`) as k6's `r.json()` path (`a.b.0`), when it is that plain. */
function k6Path(path: string): string | undefined {
  const body = path.startsWith('$') ? path.slice(1) : `.${path}`;
  const segments: string[] = [];
  const step = /^(?:\.([A-Za-z_][\w-]*)|\[(\d+)\]|\.(\d+)|\[['"]([A-Za-z_][\w -]*)['"]\])/;
  let rest = body;
  while (rest !== '') {
    const match = step.exec(rest);
    if (!match) return undefined;
    segments.push((match[1] ?? match[2] ?? match[3] ?? match[4]) as string);
    rest = rest.slice(match[0].length);
  }
  return segments.join('.');
}

/** `actual OP expected` as JavaScript, for the operators k6 can evaluate the same way. */
function comparison(actual: string, operator: string, expected: string): string | undefined {
  const e = `expectedLike(v, ${q(expected)})`;
  switch (operator) {
    case '==':
    case '===':
    case 'equals':
      return `((v) => same(v, ${e}))(${actual})`;
    case '!=':
    case '!==':
      return `((v) => !same(v, ${e}))(${actual})`;
    case '<':
    case '<=':
    case '>':
    case '>=':
      return `Number(${actual}) ${operator} Number(${q(expected)})`;
    case 'startsWith':
    case 'endsWith':
      return `asText(${actual}).${operator}(asText(expectedLike(${actual}, ${q(expected)})))`;
    case 'includes':
    case 'contains':
      return `((v) => Array.isArray(v) ? v.some((item) => same(item, ${e})) : asText(v).includes(asText(${e})))(${actual})`;
    case 'matches':
      return `new RegExp(${q(expected)}, 'u').test(asText(${actual}))`;
    case 'exists':
    case 'isTrue':
      return `Boolean(${actual})`;
    case 'isFalse':
      return `!(${actual})`;
    default:
      return undefined;
  }
}

const OPERATORS = /\s(===|!==|==|!=|<=|>=|<|>|equals|startsWith|endsWith|includes|contains|matches|exists|isTrue|isFalse)(?:\s+(.*))?$/u;

/** One `??` line (the text after `??`), or undefined when k6 cannot say it. */
function assertion(line: string): string | undefined {
  const match = OPERATORS.exec(line);
  if (!match) return undefined;
  const left = line.slice(0, match.index).trim();
  const space = left.search(/\s/);
  const subject = space < 0 ? left : left.slice(0, space);
  const argument = space < 0 ? '' : left.slice(space + 1).trim();
  let actual: string | undefined;
  if (subject === 'status' && argument === '') actual = 'r.status';
  else if (subject === 'duration' && argument === '') actual = 'r.timings.duration';
  else if (subject === 'header' && argument !== '') actual = `header(r, ${q(argument)})`;
  else if (subject === 'body' && argument === '') actual = 'r.body';
  else if (subject === 'body') {
    const path = k6Path(argument);
    if (path !== undefined) actual = `json(r, ${q(path)})`;
  }
  return actual === undefined ? undefined : comparison(actual, match[1] as string, (match[2] ?? '').trim());
}

const fn = (expression: string): string => `(r) => { try { return ${expression}; } catch (e) { return false; } }`;

export function translateChecks(spec: RequestSpec): TranslatedChecks {
  const checks: K6Check[] = [];
  const untranslated: string[] = [];
  for (const { text, line } of spec.chain?.assertions ?? []) {
    const expression = assertion(text);
    if (expression) checks.push({ name: text, fn: fn(expression) });
    else untranslated.push(`?? ${text} (line ${line})`);
  }
  const a = spec.annotations;
  if (a.expectedStatusCodes !== undefined) {
    const wanted = a.expectedStatusCodes.split(/[\s,]+/).filter(Boolean);
    const tests = wanted.map((code) => (/^\dxx$/i.test(code) ? `Math.floor(r.status / 100) === ${code[0]}` : `r.status === ${Number(code)}`));
    checks.push({ name: `expectedStatusCodes ${wanted.join(',')}`, fn: fn(tests.join(' || ') || 'false') });
  }
  if (a.expectedBody !== undefined) checks.push({ name: 'expectedBody', fn: fn(`asText(r.body).includes(${q(a.expectedBody)})`) });
  if (a.expectedBodyExact !== undefined) checks.push({ name: 'expectedBodyExact', fn: fn(`r.body === ${q(a.expectedBodyExact)}`) });
  if (a.expectedBodyPattern !== undefined) checks.push({ name: 'expectedBodyPattern', fn: fn(`new RegExp(${q(a.expectedBodyPattern)}, 'u').test(asText(r.body))`) });
  for (const [key, value] of Object.entries(a)) {
    if (key !== 'expectedBodyField' && !key.startsWith('expectedBodyField.')) continue;
    const match = /^(\S+)\s*(?:=\s*|\s+)(.*)$/s.exec(value);
    const path = match ? k6Path(match[1] as string) : undefined;
    if (!match || path === undefined) untranslated.push(`expectedBodyField ${value}`);
    else checks.push({ name: `expectedBodyField ${match[1]}`, fn: fn(`((v) => same(v, expectedLike(v, ${q((match[2] as string).trim())})))(json(r, ${q(path)}))`) });
  }
  for (const script of spec.chain?.scripts ?? []) {
    if (script.phase === 'post') untranslated.push(`the response script at line ${script.line}${script.path ? ` (${script.path})` : ''}: its client.test checks`);
  }
  return { checks, untranslated };
}
