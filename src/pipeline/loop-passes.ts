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

async function itemsOf(item: string, values: string, where: string, spec: RequestSpec, file: string, run: RunServices): Promise<Pass[]> {
  if (!READABLE.test(values)) throw new UsageError(`${where}: reqflow reads a variable name, {{name}} or a JSON array here, not a JavaScript expression`, { hint: 'compute the array in a script (exports.items = …) and loop over items' });
  // What the request's own scripts and references define first (httpyac runs them before the loop reads its values).
  const ctx = createContext(spec, file, run);
  if (spec.chain && ctx.chain) await (await import('../chain/plugin.js')).beforeSend(ctx);
  const text = await ctx.variables.expand(/^[[{]/.test(values) ? values : `{{${values}}}`);
  let array: unknown;
  try {
    array = JSON.parse(text);
  } catch {
    array = undefined;
  }
  if (!Array.isArray(array)) throw new UsageError(`${where}: the value is not a JSON array`, { hint: 'set it to an array, e.g. ["a","b"] (a script: exports.items = [...])' });
  if (array.length > LOOP_LIMIT) throw new UsageError(`${where}: ${array.length} items, at most ${LOOP_LIMIT} passes`);
  return array.map((value: unknown, index) => {
    const out = emptyValues();
    flattenValue(item, item, value, { file, asJson: true }, out);
    // `for token of tokens`: each value is a secret, as a variable of that name is.
    for (const [name, text] of Object.entries(out.vars)) if (isSecretName(name)) run.secrets.add(text);
    return { ...out.vars, $index: String(index) };
  });
}

/** The run's outcome of the loop: the first error, else the first pass that failed, else the last pass. */
function combined(outcomes: readonly RequestOutcome[], spec: RequestSpec): RequestOutcome {
  return outcomes.find((o) => o.error) ?? outcomes.find((o) => o.exitCode !== ExitCode.ok) ?? outcomes.at(-1) ?? { spec, exitCode: ExitCode.ok };
}

export async function runLoop(spec: RequestSpec, file: string, run: RunServices, runRequest: RunRequest): Promise<RequestOutcome> {
  const loop = spec.loop;
  let passes: Pass[] = [];
  try {
    const written = spec.annotations.loop ?? '';
    const where = `${spec.source.file}:${loop?.line ?? spec.source.line}: # @loop ${written.length > 50 ? `${written.slice(0, 47)}...` : written}`;
    if (loop?.count !== undefined) {
      const count = Number(loop.count);
      if (count > LOOP_LIMIT) throw new UsageError(`${where}: at most ${LOOP_LIMIT} passes`);
      passes = Array.from({ length: count }, (_, index) => ({ $index: String(index) }));
    } else if (loop?.item !== undefined && loop.values !== undefined) passes = await itemsOf(loop.item, loop.values, where, spec, file, run);
  } catch (caught) {
    // Nothing was sent: reported as a request that failed before it went out.
    const error = isReqflowError(caught) ? caught : internalError(caught);
    const outcome: RequestOutcome = { spec, exitCode: error.exitCode, error };
    run.report.reporter.requestStart?.(spec);
    await run.report.reporter.requestEnd?.(outcome, createContext(spec, file, run));
    return outcome;
  }
  // httpyac names the passes of a named request name0, name1, …; an unnamed one's keep its place.
  const named = spec.annotations.name !== undefined || !/^request-\d+$/.test(spec.name);
  const { loop: _, ...pass } = spec;
  const outcomes: RequestOutcome[] = [];
  for (const [index, loopVariables] of passes.entries()) {
    if (run.signal.aborted) break;
    outcomes.push(await runRequest({ ...pass, name: named ? `${spec.name}${index}` : `${spec.name}#${index}`, loopVariables, loopOf: spec.name }, file, run));
  }
  return combined(outcomes, spec);
}
