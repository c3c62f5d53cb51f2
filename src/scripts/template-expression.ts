/**
 * httpyac's JavaScript in a template (`{{ this.name ?? "World" }}`, `{{ token.toUpperCase() }}`),
 * evaluated in the httpyac script sandbox (its worker, time limit, memory limit and bridge) as
 * httpyac evaluates it: `exports.$result = (expression)` in an async function whose scope holds
 * the variables, `this` being that scope, a promise it leaves there awaited (`evalExpression`, `runScript` in httpyac's
 * `src/plugins/javascript/moduleUtils.ts`). Its value becomes text as httpyac's
 * `parseHandlebarsString` and `toString` (`src/utils/parserUtils.ts`, `stringUtils.ts`) make it:
 * a string as it is, a number as `${n}`, `null` as `null`, a Date as its ISO text, an Error as its
 * message, anything else truthy as JSON; `undefined`, `false` and a function are not replaced
 * there (httpyac sends the template as written), so here they are refused.
 * Loaded only for a request that has such a template.
 */
import type { JavascriptResult } from '../core/variables.js';
import { carryCode, type ExportedFunction, namedFunctions, refusalOf } from './exported-functions.js';
import { HTTPYAC_API, scriptIdentifiers } from './httpyac-api.js';
import type { ScriptWorker } from './script-worker.js';

export interface TemplateHost {
  /** The values of those names that are variables (the others left out). */
  read(names: readonly string[]): Promise<Record<string, string>>;
  /** `$global`: the run's globals, as httpyac scripts see them. */
  globals: Record<string, string>;
  globalKinds: Record<string, string>;
  /** Functions httpyac scripts exported in this run (`{{ sign(body) }}`: exported-functions.ts). */
  functions?: ReadonlyMap<string, ExportedFunction> | undefined;
  /** True when a text carries a secret; then the result is registered as one. */
  carriesSecret(text: string): boolean;
  addSecret(value: string): void;
  timeoutMs: number;
  sandboxes(): Promise<ScriptWorker>;
}

/** A value httpyac leaves unreplaced starts with this mark (never the start of a JavaScript string a template sends: see `refusal`). */
const UNSENT = '\u0000unsent:';

/** httpyac's value-to-text, run inside the sandbox (its getters and `toJSON` run within the time limit). */
const TO_TEXT = String.raw`((v) => {
  if (typeof v === 'string') return v.startsWith(${JSON.stringify(UNSENT)}) ? v.slice(1) : v;
  if (typeof v === 'number') return String(v);
  if (v === null) return 'null';
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Error) return String(v.message);
  if (!v) return ${JSON.stringify(UNSENT)} + (v === undefined ? 'undefined' : String(v));
  let json;
  try {
    json = JSON.stringify(v);
  } catch {
    const seen = new WeakSet();
    json = JSON.stringify(v, (key, x) => { if (typeof x === 'object' && x !== null) { if (seen.has(x)) return undefined; seen.add(x); } return x; });
  }
  return json === undefined ? ${JSON.stringify(UNSENT)} + (typeof v === 'function' ? 'a function' : typeof v) : json;
})`;

/** `this.name`: httpyac's `this` is the variables' scope, so the names read through it are variables too. */
function namesOf(expression: string): string[] {
  const names = new Set(scriptIdentifiers(expression));
  for (const match of expression.matchAll(/\bthis\s*(?:\?\.|\.)\s*([A-Za-z_$][\w$]*)|\bthis\s*\[\s*(["'])([^"'\\]+)\2\s*\]/g)) names.add((match[1] ?? match[3]) as string);
  return [...names];
}

function refusal(why: string): string {
  if (why === 'undefined') return 'it evaluates to undefined (httpyac leaves such a template unreplaced and sends it as written)';
  if (why === 'false') return 'it evaluates to false (httpyac leaves such a template unreplaced and sends it as written)';
  return `it evaluates to ${why}, which has no text (httpyac leaves such a template unreplaced)`;
}

/** Why the text is no JavaScript expression (parsed only, never run), or undefined when it is one. */
async function notAnExpression(expression: string): Promise<string | undefined> {
  const { parseExpressionAt } = await import('acorn');
  // In an async function, as httpyac runs it (`await` allowed).
  const wrapped = `(async () => (${expression}\n))`;
  try {
    // One expression, all of it: `1); other(); (2` or `1), (2` is not what httpyac's `(expression)` means.
    const node = parseExpressionAt(wrapped, 0, { ecmaVersion: 'latest', sourceType: 'script' });
    return node.type === 'ArrowFunctionExpression' && wrapped.slice(node.end).trim() === ')' ? undefined : 'SyntaxError: not one expression';
  } catch (error) {
    return `SyntaxError: ${(error as Error).message.replace(/ \(\d+:\d+\)$/, '')}`;
  }
}

/** Reqflow's own words for a failure (limits): they quote nothing the expression computed. */
const OWN_FAILURE = /^(?:did not finish within|awaits something that never settles|used more than \d+ MB)/;

/**
 * The failure of an expression that read a secret, without what it says: an error's message or a
 * thrown value may hold a piece of the secret (`null[token.slice(2)]`, `throw token.slice(2)`)
 * that masking the whole value does not catch. Its kind and reqflow's own limits stay.
 */
function withoutValues(failure: { message: string; timedOut?: boolean }): string {
  if (failure.timedOut === true || OWN_FAILURE.test(failure.message)) return failure.message;
  const kind = /^([A-Za-z_$][\w$]*):/.exec(failure.message)?.[1];
  return `${kind ?? 'it threw'} (not shown: the expression reads a secret)`;
}

export async function evaluateTemplate(expression: string, host: TemplateHost): Promise<JavascriptResult> {
  const syntax = await notAnExpression(expression);
  if (syntax !== undefined) return { failure: syntax, syntax: true };
  // Trust (docs/trust.md) gives require to a trusted project's script blocks, never to a template: refused before it runs.
  if (/\brequire\b/.test(expression)) return { failure: 'a template cannot require() a module, trusted or not; do it in a {{ }} script block above the request, which a trusted project may' };
  const names = namesOf(expression);
  const carried = namedFunctions(names, host.functions);
  const [variables, worker] = await Promise.all([host.read(names.filter((name) => !carried.has(name))), host.sandboxes()]);
  const data = { request: null, response: null, variables, globals: host.globals, globalKinds: host.globalKinds };
  let result: string | undefined;
  let refused: string | undefined;
  // Only the result comes back: an expression's exports and $global changes stay in its sandbox.
  const sandbox = worker.createSandbox(HTTPYAC_API, (op, [name, value]) => {
    if (op === 'exports.set' && name === '$result') result = value;
    // A function an earlier script exported that is not carried: the expression fails, whatever it made of the error.
    if (op === 'function.refused' && name !== undefined && carried.has(name)) refused ??= name;
    return undefined;
  }, JSON.stringify(data), host.timeoutMs);
  let failure;
  try {
    failure =
      (carried.size > 0 ? await sandbox.run(carryCode(carried), 'reqflow:carried-functions', { marks: false }) : undefined) ??
      (await sandbox.run(`const __reqflow$value = (${expression}\n);\nexports.$result = ${TO_TEXT}(await __reqflow$value);`, 'template')) ??
      (await sandbox.run('await __reqflow$export()', 'reqflow:httpyac-exports'));
  } finally {
    sandbox.dispose();
  }
  // A function carried from an earlier script holds the values it uses: one of them may be a secret.
  const secret =
    Object.values(variables).some((value) => host.carriesSecret(value)) ||
    [...carried.values()].some((fn) => 'code' in fn && host.carriesSecret(fn.code)) ||
    (/\$global\b/.test(expression) && Object.values(host.globals).some((value) => host.carriesSecret(value)));
  if (refused !== undefined) return { failure: refusalOf(refused, carried.get(refused) as ExportedFunction) };
  if (failure) return { failure: secret ? withoutValues(failure) : failure.message };
  if (result === undefined) return { failure: refusal('undefined') };
  if (result.startsWith(UNSENT)) return { failure: refusal(result.slice(UNSENT.length)) };
  if (secret) host.addSecret(result);
  return { text: result };
}
