import { lazyBuiltin } from './lazy-builtin.js';
import { ExitCode, ReqflowError, UsageError } from './errors/index.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from './json-depth.js';
import { plainNumbers } from './json-exact.js';

type JMESPath = typeof import('@jmespath-community/jmespath');

/**
 * Loaded on first use (Node caches it): runs without a filter never load it. Its CommonJS build
 * through require: import() would start Node's ES-module loader for it (~3 ms more).
 */
async function load(): Promise<JMESPath> {
  return lazyBuiltin<typeof import('node:module')>('node:module').createRequire(import.meta.url)('@jmespath-community/jmespath') as JMESPath;
}

/** Compiles a JMESPath expression; an invalid one is exit 2 before anything is sent. */
export async function validateFilter(expression: string, where: string): Promise<void> {
  const { compile } = await load();
  try {
    compile(expression);
  } catch (error) {
    throw new UsageError(`invalid JMESPath filter ${JSON.stringify(expression)}${where}: ${firstLine(error)}`, { hint: 'see https://jmespath.site for the syntax, e.g. data.users[0].name' });
  }
}

/** A filter runner for one run: the JMESPath module is imported once, on the first filter. */
export function filterRunner(): (expression: string, document: unknown) => Promise<unknown> {
  let module: Promise<JMESPath> | undefined;
  return async (expression, document) => {
    module ??= load();
    return searchWith(await module, expression, document);
  };
}

function searchWith({ search }: JMESPath, expression: string, document: unknown): unknown {
  if (nestedDeeperThan(document, MAX_JSON_DEPTH)) {
    // JMESPath and the output recurse through the value: refused here rather than a stack overflow later.
    throw new ReqflowError(`JMESPath filter ${JSON.stringify(expression)} cannot apply: the JSON is nested more than ${MAX_JSON_DEPTH} levels deep`, { exitCode: ExitCode.httpFailure, hint: 'see the body without a filter (-o json writes it as received)' });
  }
  type Json = Parameters<typeof search>[0];
  // Numbers kept as text (lossless-json objects) are numbers to JMESPath; what passes through is written as received.
  const exact = plainNumbers(document);
  let result: unknown;
  try {
    result = search((exact ? exact.value : document) as Json, expression);
  } catch (error) {
    throw new UsageError(`JMESPath filter ${JSON.stringify(expression)} failed: ${firstLine(error)}`);
  }
  if (!exact) return result;
  let asWritten: unknown;
  try {
    asWritten = search(document as Json, expression);
  } catch {
    // A computation on numbers (sum, sort_by): only its result's numbers count.
  }
  return exact.restore(result, asWritten);
}

function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).split('\n')[0] ?? '';
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
