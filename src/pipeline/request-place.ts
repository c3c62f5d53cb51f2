import { ExitCode, type ReqflowError, UsageError, VariableError } from '../core/errors/index.js';
import type { RequestSpec } from '../core/model.js';
import { shownPath } from '../core/resolve-path.js';

/** A message that starts with a place already: `file:line:`, `file:line:column:`, a settings file's path. */
const PLACED = /^(?:[^\s:]+(?::\d+)+|[^\s:]*[/\\<][^\s:]*): /;

/**
 * PLACED, read up to the message's first space (a place holds none and ends there): the rest of
 * a message may be a long value, which the pattern would try in quadratic time.
 */
function startsWithPlace(message: string): boolean {
  const space = message.search(/\s/);
  return space > 0 && PLACED.test(message.slice(0, space + 1));
}

/**
 * An error about what a request says that names no place (`atRequest`: a URL that is not one, a
 * header value HTTP does not allow) gets where the request is written in front, as a parse error
 * or an unknown variable has it: among fifty requests, "not a valid URL" alone does not say
 * which. `file:line` for `.http` files and stdin; the file and the request's name for YAML and
 * JSON files, whose requests may share a line. The exit code stays (2, or 3 for a variable's value).
 */
export function placedError(error: ReqflowError, spec: RequestSpec): ReqflowError {
  const { file, line, locatedBy } = spec.source;
  if (error.atRequest !== true || locatedBy === 'nothing') return error;
  const shown = shownPath(file);
  if (startsWithPlace(error.message) || error.message.includes(`${shown}:`)) return error;
  const named = error.message.includes(`"${spec.name}"`);
  const place = locatedBy === 'name' ? (named ? shown : `${shown}: request "${spec.name}"`) : `${shown}:${line}`;
  const message = `${place}: ${error.message}`;
  const extra = error.hint === undefined ? { cause: error.cause ?? error } : { hint: error.hint, cause: error.cause ?? error };
  return error.exitCode === ExitCode.variable ? new VariableError(message, extra) : new UsageError(message, extra);
}
