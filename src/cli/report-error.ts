import { internalError, isReqflowError } from '../core/errors/index.js';
import type { SecretRegistry } from '../core/mask.js';
import { visible, visibleLine } from '../report/render/visible.js';

/**
 * One line `reqflow: <what went wrong>`, a `hint:` line where one helps, a stack trace only
 * with --debug; known secret values are scrubbed from all of it.
 */
export function formatError(error: unknown, options: { debug: boolean; secrets?: SecretRegistry }): { text: string; exitCode: number } {
  const scrub = (text: string): string => (options.secrets ? options.secrets.scrub(text) : text);
  const reported = isReqflowError(error) ? error : internalError(error);
  // The message and the hint are one line each, whatever a server's text quoted in them holds
  // (secrets masked, controls and line feeds made visible); a stack trace keeps its lines.
  const lines = [`reqflow: ${visibleLine(scrub(reported.message))}`];
  if (reported.hint) lines.push(`hint: ${visibleLine(scrub(reported.hint))}`);
  if (options.debug) lines.push(visible(scrub(String((reported.cause as Error | undefined)?.stack ?? reported.stack))));
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
