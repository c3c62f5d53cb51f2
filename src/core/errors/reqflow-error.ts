import { ExitCode, type ExitCodeValue } from './exit-codes.js';

/**
 * The one error type reqflow reports to the user: a one-line message, an optional hint and
 * the exit code. Anything else that escapes is a bug (exit 70).
 */
export class ReqflowError extends Error {
  readonly exitCode: ExitCodeValue;
  readonly hint?: string;
  /**
   * The error is about what a request says (its URL, a header value) but names no place: the
   * pipeline puts where the request is written in front (pipeline/request-place.ts).
   */
  readonly atRequest?: true;

  constructor(message: string, options: { exitCode?: ExitCodeValue; hint?: string; cause?: unknown; atRequest?: true } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ReqflowError';
    this.exitCode = options.exitCode ?? ExitCode.internal;
    if (options.hint !== undefined) this.hint = options.hint;
    if (options.atRequest === true) this.atRequest = true;
  }
}

export function isReqflowError(error: unknown): error is ReqflowError {
  return error instanceof ReqflowError || (error instanceof Error && error.name === 'ReqflowError' && 'exitCode' in error);
}
