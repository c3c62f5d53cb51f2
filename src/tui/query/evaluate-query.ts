import { jsonPathAll } from '../../chain/query.js';
import { BoundedRunner } from '../../core/bounded-run.js';
import { JsonSearch } from '../../core/jmespath-search.js';
import { loadJmesPath } from '../../core/jmespath-library.js';
import { prettyJson } from '../../report/render/json-text.js';
import { colors } from '../views/format.js';

/** The language of a query-box expression: JSONPath when it starts with `$`, else JMESPath (as `--filter`). */
function queryLanguage(expression: string): 'JSONPath' | 'JMESPath' {
  return expression.trimStart().startsWith('$') ? 'JSONPath' : 'JMESPath';
}

/**
 * Evaluates query-box expressions over one parsed JSON document with the project's own
 * evaluators (`--filter`'s JMESPath, the chain's JSONPath): never a second one. JSONPath gives
 * every match, as a list. The result comes back as the pane's lines, pretty-printed and coloured.
 */
export function queryEvaluator(document: unknown, scriptTimeoutMs: number | undefined): (expression: string) => Promise<string[]> {
  // One runner and one searcher for the box, under the UI's --script-timeout: made at the first query, they serve every keystroke.
  const bounded = new BoundedRunner(scriptTimeoutMs);
  let search: JsonSearch | undefined;
  return async (expression) => {
    const trimmed = expression.trim();
    const value = queryLanguage(trimmed) === 'JSONPath' ? await jsonPathAll(document, trimmed, bounded) : (search ??= new JsonSearch(await loadJmesPath(), bounded)).search(trimmed, document);
    return prettyJson(value ?? null, colors).split('\n');
  };
}
