/**
 * What `reqflow test` prints while it runs: on a terminal, one live line (`[3/12] file › name`)
 * and the failures as they happen; piped, one line per request. Then the summary.
 */
import type { TestResult } from '../core/model.js';
import type { Palette } from '../report/render/colors.js';
import { visible, visibleLine } from '../report/render/visible.js';
import { type RequestResult, type RunResult, totalsOf } from '../report/test-results.js';

export interface ProgressOptions {
  write(text: string): void;
  /** A terminal: the live line is redrawn in place. */
  live: boolean;
  colors: Palette;
}

const ms = (value: number): string => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`);

/** A failed check: what, where, and expected against actual. */
function failedCheck(test: TestResult, colors: Palette): string {
  const where = colors.dim(`(${visible(test.file)}:${test.line})`);
  return `    ${colors.error('✗')} ${visible(test.name)} ${where}\n      ${visible(test.message ?? 'failed')}`;
}

export class Progress {
  private done = 0;
  private liveShown = false;

  constructor(
    private readonly options: ProgressOptions,
    private readonly total: () => number,
  ) {}

  private clearLive(): void {
    if (this.liveShown) this.options.write('\r\u001b[K');
    this.liveShown = false;
  }

  /** One request ended (of `file`). */
  request(file: string, result: RequestResult): void {
    const { colors } = this.options;
    this.done++;
    const passed = result.exitCode === 0;
    const mark = result.error ? colors.error('ERROR') : passed ? colors.status(200, 'PASS ') : colors.error('FAIL ');
    const status = result.status !== undefined ? colors.status(result.status, String(result.status)) : '---';
    const line = `${mark} ${visible(file)} › ${visible(result.name)}  ${result.method} ${status}  ${colors.dim(ms(result.timings.total))}`;
    const details = [
      ...result.tests.filter((test) => !test.passed).map((test) => failedCheck(test, colors)),
      ...(result.error ? [`    ${visibleLine(result.error.message)}`] : []),
    ];
    this.clearLive();
    if (!this.options.live || !passed) this.options.write(`${[line, ...details].join('\n')}\n`);
    if (this.options.live) {
      this.options.write(colors.dim(`[${this.done}/${this.total()}] ${visible(file)} › ${visible(result.name)}`).slice(0, 200));
      this.liveShown = true;
    }
  }

  /** A file that could not run at all. */
  fileError(file: string, message: string): void {
    this.clearLive();
    this.options.write(`${this.options.colors.error('ERROR')} ${visible(file)}\n    ${visibleLine(message)}\n`);
  }

  summary(run: RunResult): void {
    const { colors } = this.options;
    const t = totalsOf(run);
    this.clearLive();
    const parts = [
      t.passed > 0 ? colors.status(200, `${t.passed} passed`) : '0 passed',
      t.failed > 0 ? colors.error(`${t.failed} failed`) : '0 failed',
      ...(t.errors > 0 ? [colors.error(`${t.errors} ${t.errors === 1 ? 'error' : 'errors'}`)] : []),
    ];
    const checks = t.tests > 0 ? ` · ${t.tests - t.testsFailed}/${t.tests} checks passed` : '';
    this.options.write(`\n${parts.join(', ')} (${t.requests} ${t.requests === 1 ? 'request' : 'requests'} in ${run.files.length} ${run.files.length === 1 ? 'file' : 'files'})${checks} · ${ms(run.durationMs)}\n`);
  }
}
