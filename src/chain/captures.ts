/**
 * `# @capture name = expression` and restcli's `# @extract name expression`: a value of the
 * response kept for later requests of the run. Expressions:
 *   $.data.id (JSONPath)   header:Location   status   body   regex:id=(\d+)   jmespath:data.id
 *   //user/id (XPath)      data.id (a property path)
 * restcli's `extract` is JMESPath throughout.
 */
import type { BoundedRunner } from '../core/bounded-run.js';
import { parseJsonExact } from '../core/json-exact.js';
import { UsageError } from '../core/errors/index.js';
import { SearchFailed } from '../core/jmespath-search.js';
import { getHeader } from '../core/headers.js';
import { type Exchange, responseText } from './exchange.js';
import { execFilePattern } from './file-pattern.js';
import { asText, jmesPath, jsonPath, propertyPath, xPath } from './query.js';

function json(exchange: Exchange, what: string): unknown {
  try {
    return parseJsonExact(responseText(exchange.response)).value;
  } catch {
    throw new UsageError(`${what}: the response body is not JSON`);
  }
}

/** The captured text, or an error naming the capture when the expression finds nothing; a regex, JSONPath or JMESPath runs under `bounded`'s limit. */
export async function captureValue(expression: string, syntax: 'capture' | 'jmespath', exchange: Exchange, what: string, bounded: BoundedRunner): Promise<string> {
  const body = (): string => responseText(exchange.response);
  // A query's error (invalid, past the time limit) names the capture, as a regex's does: exit 2, a value later requests need is missing.
  const named = (query: Promise<unknown>): Promise<unknown> =>
    query.catch((error: unknown) => {
      throw error instanceof UsageError || error instanceof SearchFailed ? new UsageError(`${what}: ${error.message}`) : error;
    });
  let value: unknown;
  if (syntax === 'jmespath') value = await named(jmesPath(json(exchange, what), expression, bounded));
  else if (expression === 'status') value = exchange.response.status;
  else if (expression === 'body') value = body();
  else if (/^headers?:/i.test(expression)) value = getHeader(exchange.response.headers, expression.slice(expression.indexOf(':') + 1).trim());
  else if (expression.startsWith('regex:')) {
    let match: RegExpExecArray | null;
    try {
      match = execFilePattern(expression.slice(6).trim(), body(), bounded);
    } catch (error) {
      throw new UsageError(`${what}: ${error instanceof SyntaxError ? 'invalid regex: ' : `${expression}: `}${(error as Error).message}`);
    }
    value = match ? (match[1] ?? match[0]) : undefined;
  } else if (expression.startsWith('jmespath:')) value = await named(jmesPath(json(exchange, what), expression.slice(9).trim(), bounded));
  else if (expression.startsWith('$')) value = await named(jsonPath(json(exchange, what), expression, bounded));
  else if (expression.startsWith('/') || expression.startsWith('xpath:')) value = await named(xPath(body(), expression.replace(/^xpath:/, '').trim(), bounded));
  else value = propertyPath(json(exchange, what), expression);
  if (value === undefined || value === null) throw new UsageError(`${what}: ${expression} matches nothing in the response of "${exchange.name}"`);
  return asText(value);
}
