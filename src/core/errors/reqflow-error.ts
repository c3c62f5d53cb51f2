import { ExitCode, type ExitCodeValue } from './exit-codes.js';

/**
 * The one error type reqflow reports to the user: a one-line message, an optional hint and
 * the exit code. Anything else that escapes is a bug (exit 70).
 */
export class ReqflowError extends Error {
  readonly exitCode: ExitCodeValue;
  readonly hint?: string;

  constructor(message: string, options: { exitCode?: ExitCodeValue; hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ReqflowError';
    this.exitCode = options.exitCode ?? ExitCode.internal;
    if (options.hint !== undefined) this.hint = options.hint;
  }
}

export function isReqflowError(error: unknown): error is ReqflowError {
  return error instanceof ReqflowError || (error instanceof Error && error.name === 'ReqflowError' && 'exitCode' in error);
}
