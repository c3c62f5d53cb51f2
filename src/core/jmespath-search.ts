/**
 * JMESPath over a parsed JSON document — `--filter`, restcli's `extract`, a `jmespath:` capture,
 * the UI's query box — with numbers as written, a document nested too deep refused, and the
 * search bounded by the run's time limit wherever it could run long.
 */
import { ExitCode, ReqflowError } from './errors/index.js';
import type { BoundedRunner } from './bounded-run.js';
import { firstLine } from './first-line.js';
import { loadJmesPath, type JMESPath } from './jmespath-library.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from './json-depth.js';
import { plainNumbers, type PlainNumbers } from './json-exact.js';

/**
 * The size (characters of strings and keys, plus one a value) up to which a document is searched
 * without the runner. What runs long in the library grows with the document — its `trim`
 * functions build a regular expression that is quadratic on a run of spaces (200 kB hung a run
 * for a minute), a filter comparing with `$` is quadratic in the items — so a document this small
 * is searched in milliseconds whatever it holds, while the runner costs a thread per search
 * (0.05–0.5 ms, more than such a search) and a context at the first.
 */
const DIRECT_SIZE = 4096;

/**
 * A search that compiled but failed on its document — a type error (`abs(name)` on a string), past
 * the time limit: the filter could not be applied to the response (exit 1, docs/output.md), not a
 * usage error — the request was sent. A capture words it as its own error (src/chain/captures.ts).
 */
export class SearchFailed extends ReqflowError {
  constructor(expression: string, why: string) {
    super(`JMESPath filter ${JSON.stringify(expression)} failed: ${why}`, { exitCode: ExitCode.httpFailure });
  }
}

/** JMESPath `expression` over `document`: a document past {@link DIRECT_SIZE} is searched by `bounded`, under its limit. */
export async function searchJson(expression: string, document: unknown, bounded: BoundedRunner): Promise<unknown> {
  return searchWith(await loadJmesPath(), expression, document, bounded);
}

/** {@link searchJson} with the library loaded (a run's filters load it once). */
export function searchWith({ search }: JMESPath, expression: string, document: unknown, bounded: BoundedRunner): unknown {
  if (nestedDeeperThan(document, MAX_JSON_DEPTH)) {
    // JMESPath and the output recurse through the value: refused here rather than a stack overflow later.
    throw new ReqflowError(`JMESPath filter ${JSON.stringify(expression)} cannot apply: the JSON is nested more than ${MAX_JSON_DEPTH} levels deep`, { exitCode: ExitCode.httpFailure, hint: 'see the body without a filter (-o json writes it as received)' });
  }
  // Numbers kept as text (lossless-json objects) are numbers to JMESPath; what passes through is written as received.
  const exact = plainNumbers(document);
  const work = (): { result: unknown; asWritten?: unknown } => searchBoth(search, expression, document, exact);
  let found: ReturnType<typeof work>;
  try {
    found = sizeWithin(document, DIRECT_SIZE) ? work() : bounded.run(work);
  } catch (error) {
    throw new SearchFailed(expression, firstLine(error));
  }
  return exact ? exact.restore(found.result, found.asWritten) : found.result;
}

/** The search; where the document keeps numbers as text (`exact`), over its plain numbers, and as written too. */
function searchBoth(search: JMESPath['search'], expression: string, document: unknown, exact: PlainNumbers | undefined): { result: unknown; asWritten?: unknown } {
  type Json = Parameters<typeof search>[0];
  if (!exact) return { result: search(document as Json, expression) };
  const result = search(exact.value as Json, expression);
  try {
    return { result, asWritten: search(document as Json, expression) };
  } catch {
    // A computation on numbers (sum, sort_by): only its result's numbers count.
    return { result };
  }
}

/** Whether `value`'s size (as {@link DIRECT_SIZE} counts it) is at most `limit`; it stops once past it. */
function sizeWithin(value: unknown, limit: number): boolean {
  let left = limit;
  const values: unknown[] = [value];
  while (values.length > 0) {
    const item = values.pop();
    if (typeof item === 'string') left -= item.length;
    if (typeof item !== 'object' || item === null) continue;
    for (const [key, child] of Array.isArray(item) ? item.entries() : Object.entries(item)) {
      left -= typeof key === 'string' ? key.length + 1 : 1;
      if (left < 0) return false;
      values.push(child);
    }
  }
  return left >= 0;
}
