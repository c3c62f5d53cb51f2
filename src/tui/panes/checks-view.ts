import { relative } from 'node:path';
import type { TestResult } from '../../core/model.js';
import { visible } from '../../report/render/visible.js';
import { colors, shown } from '../views/format.js';

/**
 * A request's checks (`??` lines, `client.test`, restcli `expected*`) as the response pane lists
 * them: a summary, then one line per check with where it is written, and under a failed one
 * what was expected against what came.
 */
export function checksText(tests: readonly TestResult[], root: string, scrub: (text: string) => string): string {
  const failed = tests.filter((test) => !test.passed).length;
  const summary = failed === 0 ? colors.status(200, `checks: all ${tests.length} passed`) : colors.error(`checks: ${failed} of ${tests.length} failed`);
  const lines = [summary];
  for (const test of tests) {
    // A file name a cloned project chose, drawn as the tree draws it: controls made visible.
    const where = colors.dim(`${shown(relative(root, test.file) || test.file)}:${test.line}`);
    const mark = test.passed ? colors.status(200, '✓') : colors.error('✗');
    lines.push(`${mark} ${visible(scrub(test.name))}  ${where}`);
    // The message says what was expected against what came (or why the check could not run).
    if (!test.passed && test.message) lines.push(`    ${test.error === true ? colors.dim('could not check: ') : ''}${visible(scrub(test.message))}`);
  }
  return lines.join('\n');
}
