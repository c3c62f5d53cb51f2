/** The result of a stress run as the terminal shows it: one block, a row per figure. */
import type { Palette } from '../report/render/colors.js';
import { visible } from '../report/render/visible.js';
import { KIND_LABELS, type ErrorKind } from './error-kind.js';
import type { StressSummary } from './summary.js';

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const percent = (fraction: number): string => `${(fraction * 100).toFixed(fraction > 0 && fraction < 0.001 ? 3 : 1)} %`;
const fixed = (ms: number): string => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));

/** The settings line: `10 workers, ramp-up 2.00 s, for 10.00 s, at most 50 req/s`. */
function settingsLine(settings: StressSummary['settings']): string {
  const parts = [`${settings.workers} ${settings.workers === 1 ? 'worker' : 'workers'}`];
  if (settings.rampUpMs > 0) parts.push(`ramp-up ${seconds(settings.rampUpMs)}`);
  if (settings.requests !== undefined) parts.push(`${settings.requests} requests`);
  if (settings.durationMs !== undefined) parts.push(`for ${seconds(settings.durationMs)}`);
  if (settings.rate !== undefined) parts.push(`at most ${settings.rate} req/s`);
  return parts.join(', ');
}

/** A threshold's actual figure in its own unit. */
function actualText(text: string, actual: number | null): string {
  if (actual === null) return 'nothing measured';
  if (/^\s*(error_rate|errors)/i.test(text)) return percent(actual);
  if (/^\s*rps/i.test(text)) return `${actual.toFixed(1)} req/s`;
  return `${fixed(actual)} ms`;
}

export function stressTable(summary: StressSummary, colors: Palette): string {
  const row = (label: string, text: string): string => `${colors.dim(label.padEnd(12))}${text}`;
  const { request, latency, errors } = summary;
  const lines = [
    `${colors.bold('stress')} ${visible(request.name)} — ${colors.method(request.method)} ${visible(request.url)}`,
    colors.dim(`  ${settingsLine(summary.settings)}${summary.interrupted ? ' — stopped early (Ctrl-C)' : ''}`),
    '',
    row('requests', `${summary.count} in ${seconds(summary.elapsedMs)}, ${summary.rps.toFixed(1)} req/s`),
    row('latency', latency ? `min ${fixed(latency.min)}  avg ${fixed(latency.avg)}  p50 ${fixed(latency.p50)}  p90 ${fixed(latency.p90)}  p95 ${fixed(latency.p95)}  p99 ${fixed(latency.p99)}  max ${fixed(latency.max)}  ${colors.dim('ms')}` : colors.dim('no response')),
    row('statuses', Object.keys(summary.statuses).length > 0 ? Object.entries(summary.statuses).map(([status, n]) => `${colors.status(Number(status), status)} ×${n}`).join('   ') : colors.dim('none')),
  ];
  const kinds = Object.entries(errors.kinds).map(([kind, n]) => `${KIND_LABELS[kind as ErrorKind]} ${n}`);
  lines.push(row('errors', errors.total === 0 ? '0' : colors.error(`${errors.total} (${percent(errors.rate)}): ${kinds.join(', ')}`)));
  summary.checks.forEach((check, index) => {
    const mark = check.failed > 0 ? colors.error('✗') : colors.status(200, '✓');
    lines.push(row(index === 0 ? 'checks' : '', `${mark} ${visible(check.name)}  ${check.passed} passed, ${check.failed} failed  ${colors.dim(`(line ${check.line})`)}`));
  });
  summary.thresholds.forEach((result, index) => {
    const mark = result.passed ? colors.status(200, '✓') : colors.error('✗');
    lines.push(row(index === 0 ? 'thresholds' : '', `${mark} ${visible(result.threshold)}  ${colors.dim(actualText(result.threshold, result.actual))}`));
  });
  if (summary.thresholds.length > 0) lines.push('', summary.passed ? colors.status(200, 'PASS: every threshold held') : colors.error(`FAIL: ${summary.thresholds.filter((t) => !t.passed).length} of ${summary.thresholds.length} thresholds crossed`));
  return `${lines.join('\n')}\n`;
}
