/**
 * `--report tap[=PATH]`: TAP version 14, one test point per check (or per request without
 * checks), a YAML diagnostic block (js-yaml) with the message, file and line of each failure.
 */
import type { FileResult, RequestResult, RunResult } from './test-results.js';
import { visible } from './render/visible.js';

interface Point {
  ok: boolean;
  description: string;
  diagnostic?: Record<string, unknown>;
}

/**
 * `#` starts a directive in a description, and a line break would end the line: both escaped. What
 * a terminal acts on (a name or a server's text holding ESC) is made visible: TAP is read there.
 */
const describe = (text: string): string => visible(text.replace(/\\/g, '\\\\').replace(/#/g, '\\#').replace(/[\r\n]+/g, ' '));

function pointsOf(file: FileResult, request: RequestResult): Point[] {
  const own = request.file ?? file.file;
  const prefix = `${file.file} › ${request.name}`;
  if (request.error) return [{ ok: false, description: prefix, diagnostic: { message: request.error.message, severity: 'error', exitCode: request.error.exitCode, at: `${own}:${request.line}` } }];
  if (request.tests.length === 0) {
    const ok = request.exitCode === 0;
    return [{ ok, description: `${prefix} ${request.method} ${request.status ?? ''}`.trim(), ...(ok ? {} : { diagnostic: { message: `status ${request.status ?? '?'}`, at: `${own}:${request.line}` } }) }];
  }
  return request.tests.map((test) => ({
    ok: test.passed,
    description: `${prefix} › ${test.name}`,
    ...(test.passed ? {} : { diagnostic: { message: test.message ?? 'failed', ...(test.error ? { severity: 'error' } : {}), at: `${test.file}:${test.line}` } }),
  }));
}

/**
 * A diagnostic's strings with what a terminal acts on made visible, the file name of `at:`
 * included: js-yaml escapes C0 and C1 controls (`\e`, `\x9B`) but writes bidi overrides as
 * they are, and the TAP is read on a terminal.
 */
function shownDiagnostic(diagnostic: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(diagnostic).map(([key, value]) => [key, typeof value === 'string' ? visible(value) : value]));
}

export async function tapText(run: RunResult): Promise<string> {
  const { dump } = (await import('js-yaml')).default;
  const points = run.files.flatMap((file) => [
    ...file.requests.flatMap((request) => pointsOf(file, request)),
    ...(file.error ? [{ ok: false, description: file.file, diagnostic: { message: file.error.message, severity: 'error', exitCode: file.error.exitCode } }] : []),
  ]);
  const lines = ['TAP version 14', `1..${points.length}`];
  points.forEach((point, index) => {
    lines.push(`${point.ok ? 'ok' : 'not ok'} ${index + 1} - ${describe(point.description)}`);
    if (point.diagnostic) lines.push('  ---', ...dump(shownDiagnostic(point.diagnostic), { lineWidth: -1 }).trimEnd().split('\n').map((line) => `  ${line}`), '  ...');
  });
  return `${lines.join('\n')}\n`;
}
