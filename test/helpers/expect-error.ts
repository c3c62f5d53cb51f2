import { expect } from '@jest/globals';
import type { CliResult } from './cli.js';

export interface ExpectedFailure {
  code: number;
  /** The one `reqflow: ...` error line must match. */
  message: RegExp;
  /** The line right after it must be `hint: ...` matching this. */
  hint?: RegExp;
}

/** Lines of stderr that report an error (warnings are not errors). */
export function errorLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('reqflow: ') && !line.startsWith('reqflow: warning: '));
}

/** No stack frames and no `Error:`-style prefixes anywhere in a text. */
export function expectNoStackTrace(text: string): void {
  expect(text).not.toMatch(/^\s+at /m);
  expect(text).not.toMatch(/(^|\s)[A-Z]?\w*Error: /m);
  expect(text).not.toMatch(/node:internal|Unhandled 'error' event|Node\.js v\d/);
}

/**
 * The contract of every failure: the documented exit code, exactly one `reqflow: <msg>` line
 * (one line: no embedded newlines), a `hint:` line right after it where one helps, no stack trace.
 */
export function expectCleanFailure(result: CliResult, expected: ExpectedFailure): void {
  const context = `stderr was:\n${result.stderr}\nstdout was:\n${result.stdout.slice(0, 2000)}`;
  expect({ code: result.code, signal: result.signal, context }).toEqual({ code: expected.code, signal: null, context });
  const lines = errorLines(result.stderr);
  expect({ lines, context }).toEqual({ lines: [expect.stringMatching(expected.message)], context });
  const all = result.stderr.split('\n');
  const at = all.indexOf(lines[0] as string);
  if (expected.hint) expect(all[at + 1]).toMatch(new RegExp(`^hint: .*${expected.hint.source}`, expected.hint.flags));
  expect((lines[0] as string).length).toBeLessThan(400);
  expectNoStackTrace(result.stderr);
  expectNoStackTrace(result.stdout);
}

/** The error a synchronous call throws; fails the test when it does not throw. */
export function thrownBy(run: () => unknown): import('../../src/core/errors/index.js').ReqflowError {
  try {
    run();
  } catch (error) {
    return error as import('../../src/core/errors/index.js').ReqflowError;
  }
  throw new Error('expected an error');
}
