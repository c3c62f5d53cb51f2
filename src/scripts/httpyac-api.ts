/**
 * httpyac's script API (`{{ … }}` blocks), as plain JavaScript installed inside the sandbox the
 * JetBrains API uses: the variables the script names as globals, `exports.name = value` (a
 * variable for the requests after it; a function too: exported-functions.ts), `$global` (values shared by every file of the run, also
 * read as `{{$global.name}}`), `response` (`statusCode`, `headers`, `body` text, `parsedBody`),
 * `request`, `console.*`, `test(name, fn)` and `sleep(ms)`; the script may `await`. No `require` (nor file system, network, timers):
 * a script that needs them fails with its line, and its request is not sent — unless its project
 * is trusted (src/trust/): then `require`, `__dirname`, `__filename` and `Buffer` are Node's.
 */
import { TRUST_REMEDY } from '../trust/require-trust.js';
import { BRIDGE_CALL, REMOVE_GLOBALS } from './bridge-call.js';

export const HTTPYAC_API = String.raw`(function install(bridge, dataJson) {
  'use strict';
${BRIDGE_CALL}  const define = (name, value, writable) => Object.defineProperty(globalThis, name, { value, writable, configurable: writable, enumerable: false });
  // A header or global of any name is an own property: assigned, __proto__ would become the prototype and be dropped.
  const own = (object, name, value) => Object.defineProperty(object, name, { value, writable: true, enumerable: true, configurable: true });
  const joined = (object, name, value) => own(object, name, Object.hasOwn(object, name) ? [].concat(object[name], value) : value);

  // The variables the script names; a script may assign them (as in httpyac, for itself only).
  for (const [name, value] of Object.entries(data.variables || {})) if (!(name in globalThis)) define(name, value, true);
  // Functions an earlier script exported, made again here from their text (src/scripts/exported-functions.ts):
  // each defined by reqflow's own code before the script runs, and told apart if the script exports one again.
  const carried = new Map();
  const carry = (name, fn) => {
    carried.set(fn, name);
    if (!(name in globalThis)) define(name, fn, true);
  };
  const AsyncResult = (async () => {})().constructor;
  const functionText = Function.prototype.toString;
  const apply = Reflect.apply;
  const sourceOf = (fn) => {
    try {
      return apply(functionText, fn, []);
    } catch {
      return '';
    }
  };

  const exportsObject = {};
  // Objects and arrays set in an earlier script come back as such.
  const global = {};
  // What $global held when the script started: only what the script changes is set again.
  const seeded = Object.assign({}, data.globals || {});
  const kinds = data.globalKinds || {};
  for (const [name, value] of Object.entries(data.globals || {})) {
    let parsed = value;
    if (kinds[name] === 'number') parsed = Number(value);
    else if (kinds[name] === 'boolean') parsed = value === 'true';
    else if (kinds[name] === 'null') parsed = null;
    else if (/^[\[{]/.test(value)) {
      try {
        parsed = JSON.parse(value);
      } catch {
        parsed = value;
      }
    }
    own(global, name, parsed);
  }
  // The arrays as read: one replaced by another is told apart from one pushed onto (# @loop).
  const seededArrays = Object.entries(global).filter((entry) => Array.isArray(entry[1]));

  const log = (...values) => { call('log', values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(' ')); };
  const console = Object.freeze({ log, info: log, warn: log, error: log, debug: log, trace: log });
  const test = (name, fn) => {
    try {
      if (typeof fn === 'function') fn();
      call('test', name, 'pass');
    } catch (error) {
      call('test', name, 'fail', error && typeof error.message === 'string' ? error.message : String(error));
    }
  };
  // A trusted project's script has Node's own (defined before this runs); any other is refused here.
  const require = (name) => {
    throw new Error('require(' + JSON.stringify(String(name)) + ') runs a program; ' + ${JSON.stringify(TRUST_REMEDY)});
  };

  const headerObject = (pairs) => {
    const out = {};
    for (const [name, value] of pairs) joined(out, name.toLowerCase(), value);
    return out;
  };
  // No request (a template expression, evaluated while the request is built): no request object.
  const req = data.request || { headers: [] };
  // The hook's request (httpyac's, just before it goes out): the script may change it; a header
  // written on several lines is an array of them.
  // Every name the hook assigns is a header, __proto__ too (the host refuses it, never dropping it).
  const hookHeaders = new Proxy({}, { set: (target, name, value) => Boolean(own(target, name, value)) });
  for (const [name, , value] of req.headers) joined(hookHeaders, name, value);
  const request = !data.request ? undefined : data.hook ? { method: req.method, url: req.urlResolved, headers: hookHeaders, body: req.bodyResolved === null ? undefined : req.bodyResolved } : Object.freeze({
    method: req.method,
    url: req.urlResolved,
    headers: Object.freeze(Object.fromEntries(req.headers.map((h) => [h[0], h[2]]))),
    body: req.bodyResolved === null ? undefined : req.bodyResolved,
  });
  const res = data.response;
  const response = res === null ? undefined : Object.freeze({
    statusCode: res.status,
    headers: Object.freeze(headerObject(res.headers)),
    body: res.body,
    parsedBody: res.json ? JSON.parse(res.body) : undefined,
    contentType: Object.freeze({ mimeType: res.mimeType, charset: res.charset }),
  });

  // What the hook left in request, checked here where the values' types are still known.
  const hookResult = () => {
    const known = ['method', 'url', 'headers', 'body'];
    const other = Object.keys(request).filter((key) => !known.includes(key));
    if (other.length > 0) return { problem: 'it sets request.' + other[0] };
    if (Object.hasOwn(exportsObject, '$cancel')) return { problem: 'it sets exports.$cancel' };
    if (typeof request.method !== 'string' || typeof request.url !== 'string') return { problem: 'request.method and request.url must be text' };
    if (request.body !== undefined && request.body !== null && typeof request.body !== 'string') return { problem: 'request.body is not text' };
    if (request.headers === null || typeof request.headers !== 'object') return { problem: 'request.headers is not an object' };
    // A number goes out as its text, as Node's http sends it under httpyac.
    const headers = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined) continue;
      const line = (v) => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined);
      const lines = Array.isArray(value) ? value.map(line) : [line(value)];
      if (lines.length === 0 || lines.includes(undefined)) return { problem: 'header ' + JSON.stringify(name) + ' is not text' };
      own(headers, name, Array.isArray(value) ? lines : lines[0]);
    }
    return { method: request.method, url: request.url, headers, body: request.body === null ? undefined : request.body };
  };

${REMOVE_GLOBALS}  define('exports', exportsObject, false);
  define('__reqflow$carry', carry, false);
  define('__reqflow$refused', (name) => { call('function.refused', name); }, false);
  define('module', Object.freeze({ exports: exportsObject }), false);
  define('$global', global, false);
  define('console', console, false);
  define('test', test, false);
  // httpyac's sleep(ms), awaited as a promise there: here the script waits in place (within its time limit).
  define('sleep', (ms) => { call('sleep', ms); }, false);
  if (!Object.hasOwn(globalThis, 'require')) define('require', require, false);
  if (request !== undefined) define('request', request, false);
  if (response !== undefined) define('response', response, false);
  // Run by the host after the script: what it exported and put in $global become variables; an
  // exported promise (an async function's result) is awaited first, as httpyac's runScript awaits it.
  define('__reqflow$export', async () => {
    for (const [name, value] of Object.entries(exportsObject)) if (value instanceof AsyncResult) exportsObject[name] = await value;
    for (const [name, value] of Object.entries(exportsObject)) {
      if (typeof value === 'function') call('exports.function', name, carried.has(value) ? '' : sourceOf(value), carried.get(value));
      else if (value !== undefined) call('exports.set', name, text(value), kindOf(value));
    }
    for (const [name, value] of Object.entries(global)) if (value !== undefined && typeof value !== 'function' && (seeded[name] !== text(value) || kinds[name] !== kindOf(value))) call('global.set', name, text(value), kindOf(value));
    for (const name of Object.keys(seeded)) if (!Object.hasOwn(global, name)) call('global.clear', name);
    for (const [name, array] of seededArrays) if (global[name] !== array) call('global.replaced', name);
    if (data.hook) call('request.set', JSON.stringify(hookResult()));
  }, false);
})`;

const KEYWORDS = new Set(
  'break case catch class const continue debugger default delete do else export extends false finally for function if import in instanceof let new null return super switch this throw true try typeof var void while with yield await async of static get set undefined NaN Infinity'.split(' '),
);
/** What the API defines itself: never looked up as variables. */
const API_NAMES = new Set(['exports', 'module', '$global', 'console', 'test', 'sleep', 'require', 'request', 'response', 'JSON', 'Math', 'Object', 'Array', 'String', 'Number', 'Boolean', 'Date', 'RegExp', 'Error', 'Buffer']);

/**
 * The names a script may read as variables (httpyac gives a script every variable as a
 * global): identifiers that are not keywords, not the API's, not a property (`a.name`).
 */
export function scriptIdentifiers(code: string): string[] {
  const names = new Set<string>();
  for (const match of code.matchAll(/(?<![\w$.])[A-Za-z_$][\w$]*/g)) {
    const name = match[0];
    if (!KEYWORDS.has(name) && !API_NAMES.has(name)) names.add(name);
  }
  return [...names];
}
