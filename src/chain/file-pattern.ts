import { runBounded } from '../core/bounded-run.js';

/**
 * A request file's regular expression (JavaScript syntax, `u`) over a response's text, stopped
 * after `limitMs` (core/bounded-run.ts). An invalid pattern throws its SyntaxError.
 */
export function execFilePattern(source: string, text: string, limitMs: number): RegExpExecArray | null {
  const pattern = new RegExp(source, 'u');
  return runBounded(() => pattern.exec(text), limitMs);
}
