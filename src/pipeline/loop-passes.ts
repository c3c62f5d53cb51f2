/**
 * httpyac's `# @loop` (docs/http-dialect.md, "Loops"): the request runs once per pass, each pass
 * a request of its own through `runRequest` — reported, checked and kept in the history as any
 * other. A pass sees `{{$index}}` (0, 1, …) and, in `for NAME of VALUES`, `{{NAME}}` (an object
 * also by its dotted names, `{{NAME.id}}`). Loaded only for a request with `# @loop`.
 */
import { ExitCode, UsageError, isReqflowError, internalError } from '../core/errors/index.js';
import { emptyValues, flattenValue } from '../core/environment-values.js';
import { isSecretName } from '../core/mask.js';
import type { RequestSpec } from '../core/model.js';
import type { RequestOutcome } from '../report/reporter.js';
import { createContext, type RunServices } from './create-context.js';

/** The most passes of one `# @loop` (a mistyped count must not send a flood). */
const LOOP_LIMIT = 1000;

type RunRequest = (spec: RequestSpec, file: string, run: RunServices) => Promise<RequestOutcome>;

/** A pass's variables: `$index`, and the item with its dotted names. */
type Pass = Record<string, string>;

/** A variable name (`items`, `data.ids`), `{{items}}` or a JSON array written out: the forms reqflow reads without running JavaScript. */
const READABLE = /^(?:\{\{[^{}]+\}\}|[A-Za-z_$][\w$]*(?:\.[\w$]+|\[\d+\])*|\[[\s\S]*\])$/;

/** The array `values` names, read after the request's scripts and references ran (httpyac's order) or, `again`, as it stands now. */
async function arrayOf(values: string, where: string, spec: RequestSpec, file: string, run: RunServices, again = false): Promise<unknown[]> {
  if (!READABLE.test(values)) throw new UsageError(`${where}: reqflow reads a variable name, {{name}} or a JSON array here, not a JavaScript expression`, { hint: 'compute the array in a script (exports.items = …) and loop over items' });
  const ctx = createContext(spec, file, run);
  if (!again && spec.chain && ctx.chain) await (await import('../chain/plugin.js')).beforeSend(ctx);
  const text = await ctx.variables.expand(/^[[{]/.test(values) ? values : `{{${values}}}`);
  let array: unknown;
  try {
    array = JSON.parse(text);
  } catch {
    array = undefined;
  }
  if (!Array.isArray(array)) throw new UsageError(`${where}: the value is not a JSON array`, { hint: 'set it to an array, e.g. ["a","b"] (a script: exports.items = [...])' });
  if (array.length > LOOP_LIMIT) throw new UsageError(`${where}: ${array.length} items, at most ${LOOP_LIMIT} passes`);
  return array;
}

async function itemsOf(item: string, values: string, where: string, spec: RequestSpec, file: string, run: RunServices): Promise<Pass[]> {
  return (await arrayOf(values, where, spec, file, run)).map((value: unknown, index) => {
    const out = emptyValues();
    flattenValue(item, item, value, { file, asJson: true }, out);
    // `for token of tokens`: each value is a secret, as a variable of that name is.
    for (const [name, text] of Object.entries(out.vars)) if (isSecretName(name)) run.secrets.add(text);
    return { ...out.vars, $index: String(index) };
  });
}

/**
 * httpyac iterates the live array, so passes that push to it (`$global.folders.push(...)` in a
 * response script: a tree walked level by level) add passes; reqflow reads the values once. An
 * array that grew while the loop ran is an error naming the line, never a loop ended silently short.
 */
async function checkNotGrown(values: string, passes: number, where: string, spec: RequestSpec, file: string, run: RunServices): Promise<void> {
  if (/^\s*\[/.test(values)) return;
  const now = await arrayOf(values, where, spec, file, run, true).catch(() => []);
  if (now.length > passes) throw new UsageError(`${where}: the array grew to ${now.length} items while the loop ran ${passes} passes; reqflow reads it once`, { hint: 'httpyac goes on over items its passes add; reqflow does not: loop over the whole list, computed before the loop' });
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
  let passes: Pass[] = [];
  try {
    const where = whereOf(spec);
    if (loop?.count !== undefined) {
      const count = Number(loop.count);
      if (count > LOOP_LIMIT) throw new UsageError(`${where}: at most ${LOOP_LIMIT} passes`);
      passes = Array.from({ length: count }, (_, index) => ({ $index: String(index) }));
    } else if (loop?.item !== undefined && loop.values !== undefined) passes = await itemsOf(loop.item, loop.values, where, spec, file, run);
  } catch (caught) {
    return refused(caught, spec, file, run);
  }
  // httpyac names the passes of a named request name0, name1, …; an unnamed one's keep its place.
  const named = spec.annotations.name !== undefined || !/^request-\d+$/.test(spec.name);
  const { loop: _, ...pass } = spec;
  const outcomes: RequestOutcome[] = [];
  for (const [index, loopVariables] of passes.entries()) {
    if (run.signal.aborted) break;
    outcomes.push(await runRequest({ ...pass, name: named ? `${spec.name}${index}` : `${spec.name}#${index}`, loopVariables, loopOf: spec.name }, file, run));
  }
  if (loop?.values !== undefined && !run.signal.aborted) {
    try {
      await checkNotGrown(loop.values, passes.length, whereOf(spec), spec, file, run);
    } catch (caught) {
      return refused(caught, spec, file, run);
    }
  }
  return combined(outcomes, spec);
}
