import { loadJmesPath } from './jmespath-library.js';

/** Compiles a JMESPath expression; an invalid one is exit 2 before anything is sent (jmespath-compile.ts). */
export async function validateFilter(expression: string, where: string): Promise<void> {
  const [{ compileFilter }, jmespath] = await Promise.all([import('./jmespath-compile.js'), loadJmesPath()]);
  compileFilter(jmespath, expression, where);
}

/**
 * A filter runner for one run (`--filter`, `# @filter`, `# @query`): the library and the search
 * (jmespath-search.ts) are loaded on the first filter, and its searcher under `limitMs`
 * (`--script-timeout`) made then too — a run without a filter loads none of them.
 */
export function filterRunner(limitMs: number | undefined): (expression: string, document: unknown) => Promise<unknown> {
  let ready: Promise<(expression: string, document: unknown) => unknown> | undefined;
  const prepare = async (): Promise<(expression: string, document: unknown) => unknown> => {
    const { JsonSearch } = await import('./jmespath-search.js');
    const { BoundedRunner } = await import('./bounded-run.js');
    const search = new JsonSearch(await loadJmesPath(), new BoundedRunner(limitMs));
    return (expression, document) => search.search(expression, document);
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
