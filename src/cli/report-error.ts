import { ExitCode, isReqflowError } from '../core/errors/index.js';
import type { SecretRegistry } from '../core/mask.js';

/**
 * One line `reqflow: <what went wrong>`, a `hint:` line where one helps, a stack trace only
 * with --debug; known secret values are scrubbed from all of it.
 */
export function formatError(error: unknown, options: { debug: boolean; secrets?: SecretRegistry }): { text: string; exitCode: number } {
  const scrub = (text: string): string => (options.secrets ? options.secrets.scrub(text) : text);
  if (isReqflowError(error)) {
    const lines = [`reqflow: ${scrub(error.message)}`];
    if (error.hint) lines.push(`hint: ${scrub(error.hint)}`);
    if (options.debug) lines.push(scrub(String((error.cause as Error | undefined)?.stack ?? error.stack)));
    return { text: `${lines.join('\n')}\n`, exitCode: error.exitCode };
  }
  const message = error instanceof Error ? error.message : String(error);
  const lines = [`reqflow: internal error: ${scrub(message.split('\n')[0] ?? '')}`, 'hint: this is a bug in reqflow; run with --debug for the stack trace and report it'];
  if (options.debug && error instanceof Error) lines.push(scrub(String(error.stack)));
  return { text: `${lines.join('\n')}\n`, exitCode: ExitCode.internal };
}
