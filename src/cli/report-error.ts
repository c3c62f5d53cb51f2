import { internalError, isReqflowError } from '../core/errors/index.js';
import type { SecretRegistry } from '../core/mask.js';
import { visible } from '../report/render/visible.js';

/**
 * One line `reqflow: <what went wrong>`, a `hint:` line where one helps, a stack trace only
 * with --debug; known secret values are scrubbed from all of it.
 */
export function formatError(error: unknown, options: { debug: boolean; secrets?: SecretRegistry }): { text: string; exitCode: number } {
  // Messages may quote what a server sent: secrets masked, control characters made visible.
  const scrub = (text: string): string => visible(options.secrets ? options.secrets.scrub(text) : text);
  const reported = isReqflowError(error) ? error : internalError(error);
  const lines = [`reqflow: ${scrub(reported.message)}`];
  if (reported.hint) lines.push(`hint: ${scrub(reported.hint)}`);
  if (options.debug) lines.push(scrub(String((reported.cause as Error | undefined)?.stack ?? reported.stack)));
  return { text: `${lines.join('\n')}\n`, exitCode: reported.exitCode };
}

/**
 * A command's body, to its exit code: a thrown error is printed with {@link formatError} and
 * gives the code; `cleanup` runs in every case. Never throws.
 */
export async function exitCodeOf(body: () => Promise<number>, stderr: { write(text: string): unknown }, options: () => { debug: boolean; secrets: SecretRegistry }, cleanup: () => void): Promise<number> {
  try {
    return await body();
  } catch (error) {
    const { text, exitCode } = formatError(error, options());
    stderr.write(text);
    return exitCode;
  } finally {
    cleanup();
  }
}
