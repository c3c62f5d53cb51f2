import { UsageError } from './errors/index.js';
import { firstLine } from './first-line.js';
import { loadJmesPath } from './jmespath-library.js';

/** Compiles a JMESPath expression; an invalid one is exit 2 before anything is sent. */
export async function validateFilter(expression: string, where: string): Promise<void> {
  const { compile } = await loadJmesPath();
  try {
    compile(expression);
  } catch (error) {
    throw new UsageError(`invalid JMESPath filter ${JSON.stringify(expression)}${where}: ${firstLine(error)}`, { hint: 'see https://jmespath.site for the syntax, e.g. data.users[0].name' });
  }
}

/**
 * A filter runner for one run (`--filter`, `# @filter`, `# @query`): the library and the search
 * (jmespath-search.ts) are loaded on the first filter, and its runner under `limitMs`
 * (`--script-timeout`) made then too — a run without a filter loads none of them.
 */
export function filterRunner(limitMs: number | undefined): (expression: string, document: unknown) => Promise<unknown> {
  let ready: Promise<(expression: string, document: unknown) => unknown> | undefined;
  const prepare = async (): Promise<(expression: string, document: unknown) => unknown> => {
    const { searchWith } = await import('./jmespath-search.js');
    const { BoundedRunner } = await import('./bounded-run.js');
    const [jmespath, bounded] = [await loadJmesPath(), new BoundedRunner(limitMs)];
    return (expression, document) => searchWith(jmespath, expression, document, bounded);
  };
  return async (expression, document) => (await (ready ??= prepare()))(expression, document);
}

/**
 * The filter a request's output goes through: `--filter` (or `# @filter`), then restcli's
 * `query` (`# @query`, YAML/JSON `query`) applied to its result — JMESPath's `|`.
 */
export function requestFilter(options: { filter?: string }, annotations: Readonly<Record<string, string>>): string | undefined {
  const filter = options.filter ?? annotations.filter;
  const query = annotations.query;
  if (query === undefined) return filter;
  return filter === undefined ? query : `(${filter}) | (${query})`;
}
