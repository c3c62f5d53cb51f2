import { internalError, isReqflowError } from '../core/errors/index.js';
import type { SecretRegistry } from '../core/mask.js';

/**
 * One line `reqflow: <what went wrong>`, a `hint:` line where one helps, a stack trace only
 * with --debug; known secret values are scrubbed from all of it.
 */
export function formatError(error: unknown, options: { debug: boolean; secrets?: SecretRegistry }): { text: string; exitCode: number } {
  const scrub = (text: string): string => (options.secrets ? options.secrets.scrub(text) : text);
  const reported = isReqflowError(error) ? error : internalError(error);
  const lines = [`reqflow: ${scrub(reported.message)}`];
  if (reported.hint) lines.push(`hint: ${scrub(reported.hint)}`);
  if (options.debug) lines.push(scrub(String((reported.cause as Error | undefined)?.stack ?? reported.stack)));
  return { text: `${lines.join('\n')}\n`, exitCode: reported.exitCode };
}
