/**
 * `--repeat N`: per request, how often it passed and failed and how long it took (p50, p95),
 * to find the flaky and the slow endpoints.
 */
import type { Palette } from '../report/render/colors.js';
import { visible } from '../report/render/visible.js';
import type { RunResult } from '../report/test-results.js';

/** The nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

export function repeatSummary(run: RunResult, colors: Palette): string {
  const rows = new Map<string, { passed: number; failed: number; times: number[] }>();
  for (const file of run.files) {
    for (const request of file.requests) {
      const key = `${file.file} › ${request.name}`;
      const row = rows.get(key) ?? { passed: 0, failed: 0, times: [] };
      if (request.exitCode === 0) row.passed++;
      else row.failed++;
      row.times.push(request.timings.total);
      rows.set(key, row);
    }
  }
  const lines = ['', colors.bold('request                                   passed  failed     p50     p95')];
  for (const [key, row] of rows) {
    const sorted = [...row.times].sort((a, b) => a - b);
    const name = visible(key).padEnd(40).slice(0, 40);
    const failed = String(row.failed).padStart(7);
    lines.push(`${name}  ${String(row.passed).padStart(6)}  ${row.failed > 0 ? colors.error(failed) : failed}  ${`${Math.round(percentile(sorted, 50))} ms`.padStart(6)}  ${`${Math.round(percentile(sorted, 95))} ms`.padStart(6)}`);
  }
  return `${lines.join('\n')}\n`;
}
