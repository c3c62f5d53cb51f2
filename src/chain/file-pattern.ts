import type { BoundedRunner } from '../core/bounded-run.js';

/**
 * A request file's regular expression (JavaScript syntax, `u`) over a response's text, stopped
 * at the run's time limit (core/bounded-run.ts). An invalid pattern throws its SyntaxError.
 */
export function execFilePattern(source: string, text: string, bounded: BoundedRunner): RegExpExecArray | null {
  const pattern = new RegExp(source, 'u');
  return bounded.run(() => pattern.exec(text));
}
