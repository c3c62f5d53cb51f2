/**
 * httpyac's `# @loop` (docs/http-dialect.md, "Loops"): the request runs once per pass, each pass
 * a request of its own through `runRequest` — reported, checked and kept in the history as any
 * other. A pass sees `{{$index}}` (0, 1, …) and, in `for NAME of VALUES`, `{{NAME}}` (an object
 * also by its dotted names, `{{NAME.id}}`). Loaded only for a request with `# @loop`.
 */
import { ExitCode, UsageError, isReqflowError, internalError } from '../core/errors/index.js';
import { parseJsonExact } from '../core/json-exact.js';
import { emptyValues, flattenValue } from '../core/environment-values.js';
import { isSecretName } from '../core/mask.js';
import type { RequestSpec, ScriptSpec } from '../core/model.js';
import type { RequestOutcome } from '../report/reporter.js';
import { createContext, type RunServices } from './create-context.js';

/** The most passes of one `# @loop` (a mistyped count must not send a flood). */
const LOOP_LIMIT = 1000;

type RunRequest = (spec: RequestSpec, file: string, run: RunServices) => Promise<RequestOutcome>;

/** A pass's variables: `$index`, and the item with its dotted names. */
type Pass = Record<string, string>;

/** A variable name (`items`, `data.ids`), `{{items}}` or a JSON array written out: the forms reqflow reads without running JavaScript. */
const READABLE = /^(?:\{\{[^{}]+\}\}|[A-Za-z_$][\w$]*(?:\.[\w$]+|\[\d+\])*|\[[\s\S]*\])$/;

/**
 * What stands above the `# @loop` line — references, the file's and the request's scripts — runs once,
 * before the loop reads its values and for a count too: httpyac runs a region's hooks in order and the
 * loop's own repeats only those after it (`LoopMetaInterceptor.beforeLoop`). Their exports are the passes' variables.
 */
async function runAboveLoop(spec: RequestSpec, file: string, run: RunServices, below: (script: ScriptSpec) => boolean): Promise<void> {
  if (!spec.chain) return;
  const above: RequestSpec = { ...spec, chain: { ...spec.chain, scripts: spec.chain.scripts?.filter((script) => !below(script)) } };
  const ctx = createContext(above, file, run);
  if (ctx.chain) await (await import('../chain/plugin.js')).beforeSend(ctx);
}

/** The array `values` names, read after what stands above the loop ran (httpyac's order) or, `again`, after a pass. */
async function arrayOf(values: string, where: string, spec: RequestSpec, file: string, run: RunServices, again = false): Promise<unknown[]> {
  if (!READABLE.test(values)) throw new UsageError(`${where}: reqflow reads a variable name, {{name}} or a JSON array here, not a JavaScript expression`, { hint: 'compute the array in a script (exports.items = …) and loop over items' });
  const ctx = createContext(spec, file, run);
  const text = await ctx.variables.expand(/^[[{]/.test(values) ? values : `{{${values}}}`);
  let array: unknown;
  try {
    array = parseJsonExact(text).value; // a 64-bit id or `1.10` in an item goes on as written
  } catch {
    array = undefined;
  }
  if (!Array.isArray(array)) throw new UsageError(`${where}: the value is not a JSON array`, { hint: 'set it to an array, e.g. ["a","b"] (a script: exports.items = [...])' });
  // Read again (a growing array), the caller holds the limit over the passes.
  if (!again && array.length > LOOP_LIMIT) throw new UsageError(`${where}: ${array.length} items, at most ${LOOP_LIMIT} passes`);
  return array;
}

/** The variables of the pass over `value`, the `index`th item. */
function passOf(item: string, value: unknown, index: number, file: string, run: RunServices): Pass {
  const out = emptyValues();
  flattenValue(item, item, value, { file, asJson: true }, out);
  // `for token of tokens`: each value is a secret, as a variable of that name is.
  for (const [name, text] of Object.entries(out.vars)) if (isSecretName(name)) run.secrets.add(text);
  return { ...out.vars, $index: String(index) };
}

/** The script global (`$global.NAME`, `NAME`, `{{NAME}}`) the values name, when they name one by itself: only its array may grow. */
function globalNameOf(values: string): string | undefined {
  const name = values.replace(/^\{\{\s*(.*?)\s*\}\}$/, '$1').replace(/^\$global\./, '');
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : undefined;
}

/**
 * httpyac reads the array once and goes over it with `for … of`, so items its passes push onto
 * that same array (`$global.folders.push(...)` in a response script: a tree walked level by
 * level) get passes too; a new array put in its place does not. Reqflow reads the array again
 * after each pass: the items already passed unchanged and the array not replaced
 * (`run.chain.replacedArrays`, told by the httpyac API), it is the array httpyac walks. Any other
 * change is an error naming the line — never a pass httpyac would not send, nor a loop ended silently short.
 */
async function grownArray(values: string, before: readonly unknown[], passed: number, where: string, spec: RequestSpec, file: string, run: RunServices): Promise<unknown[]> {
  const name = globalNameOf(values);
  const replaced = name !== undefined && run.chain?.replacedArrays.has(name) === true;
  const now = replaced ? undefined : await arrayOf(values, where, spec, file, run, true).catch(() => undefined);
  if (now === undefined || now.length < passed || JSON.stringify(now.slice(0, passed)) !== JSON.stringify(before.slice(0, passed))) {
    throw new UsageError(`${where}: the array was replaced or changed while the loop ran (after ${passed} ${passed === 1 ? 'pass' : 'passes'}); reqflow follows only items added at its end`, { hint: 'push new items onto the array ($global.items.push(...)); do not assign a new array or change the items already passed' });
  }
  if (now.length > before.length && name === undefined) {
    throw new UsageError(`${where}: the array grew to ${now.length} items while the loop ran ${passed} passes; reqflow follows a growing array only when it is a variable or $global name by itself`, { hint: 'loop over $global.NAME and push onto it' });
  }
  return now;
}

/** The run's outcome of the loop: the first error, else the first pass that failed, else the last pass. */
function combined(outcomes: readonly RequestOutcome[], spec: RequestSpec): RequestOutcome {
  return outcomes.find((o) => o.error) ?? outcomes.find((o) => o.exitCode !== ExitCode.ok) ?? outcomes.at(-1) ?? { spec, exitCode: ExitCode.ok };
}

function whereOf(spec: RequestSpec): string {
  const written = spec.annotations.loop ?? '';
  return `${spec.source.file}:${spec.loop?.line ?? spec.source.line}: # @loop ${written.length > 50 ? `${written.slice(0, 47)}...` : written}`;
}

/** A loop that could not go on, reported as a request that failed before (more of) it went out. */
async function refused(caught: unknown, spec: RequestSpec, file: string, run: RunServices): Promise<RequestOutcome> {
  const error = isReqflowError(caught) ? caught : internalError(caught);
  const outcome: RequestOutcome = { spec, exitCode: error.exitCode, error };
  run.report.reporter.requestStart?.(spec);
  await run.report.reporter.requestEnd?.(outcome, createContext(spec, file, run));
  return outcome;
}

export async function runLoop(spec: RequestSpec, file: string, run: RunServices, runRequest: RunRequest): Promise<RequestOutcome> {
  const loop = spec.loop;
  const where = whereOf(spec);
  // httpyac runs a script above the `# @loop` line once, before the loop reads its values; the
  // passes repeat only what stands below it (its hooks from the loop's on) and above the request line:
  // a pre-request script past that line is a global block's from further down, run before the request once.
  const below = (s: ScriptSpec): boolean => s.phase !== 'pre' || loop === undefined || (s.line > loop.line && s.line < spec.source.line);
  let items: unknown[] = [];
  try {
    await runAboveLoop(spec, file, run, below);
    if (loop?.count !== undefined) {
      const count = Number(loop.count);
      if (count > LOOP_LIMIT) throw new UsageError(`${where}: at most ${LOOP_LIMIT} passes`);
      items = Array.from({ length: count }, () => undefined);
    } else if (loop?.item !== undefined && loop.values !== undefined) items = await arrayOf(loop.values, where, spec, file, run);
  } catch (caught) {
    return refused(caught, spec, file, run);
  }
  // httpyac names the passes of a named request name0, name1, …; an unnamed one's keep its place.
  const named = spec.annotations.name !== undefined || !/^request-\d+$/.test(spec.name);
  const { loop: _, ...looped } = spec;
  const pass = looped.chain?.scripts ? { ...looped, chain: { ...looped.chain, scripts: looped.chain.scripts.filter(below) } } : looped;
  // Only a variable's array can grow: a count or an array written out cannot.
  const live = loop?.item !== undefined && loop.values !== undefined && !/^\s*\[/.test(loop.values) ? loop.values : undefined;
  const replaced = run.chain?.replacedArrays;
  const outcomes: RequestOutcome[] = [];
  for (let index = 0; index < items.length; index++) {
    if (run.signal.aborted) break;
    const loopVariables = loop?.item !== undefined ? passOf(loop.item, items[index], index, file, run) : { $index: String(index) };
    replaced?.clear();
    outcomes.push(await runRequest({ ...pass, name: named ? `${spec.name}${index}` : `${spec.name}#${index}`, loopVariables, loopOf: spec.name }, file, run));
    if (!live || run.signal.aborted) continue;
    try {
      items = await grownArray(live, items, index + 1, where, spec, file, run);
      // The cap holds for a growing array too: once it is over, no pass more goes out.
      if (items.length > LOOP_LIMIT) throw new UsageError(`${where}: the array grew to ${items.length} items while the loop ran (after ${index + 1} ${index === 0 ? 'pass' : 'passes'}), at most ${LOOP_LIMIT} passes`);
    } catch (caught) {
      return refused(caught, spec, file, run);
    }
  }
  return combined(outcomes, spec);
}
