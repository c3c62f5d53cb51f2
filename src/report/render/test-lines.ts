import type { TestResult } from '../../core/model.js';
import type { Palette } from './colors.js';
import { visible } from './visible.js';

/** `✓ status == 200`, `✗ body $.id == 5: expected 5, got 7` — one line per check. */
export function testLines(tests: readonly TestResult[], colors: Palette, redact: (text: string) => string): string {
  return tests
    .map((test) => (test.passed ? `${colors.status(200, '✓')} ${visible(test.name)}` : `${colors.error('✗')} ${visible(test.name)}${test.message ? colors.dim(` — ${visible(redact(test.message))}`) : ''}`))
    .join('\n');
}
