/** Plain-text tables for the bench's output. */

export const ms = (value, digits = 0) => (Number.isFinite(value) ? `${value.toFixed(digits)} ms` : 'n/a');
export const mb = (value) => (Number.isFinite(value) ? `${value.toFixed(1)} MB` : 'n/a');
export const ratio = (value) => (Number.isFinite(value) ? `${value.toFixed(2)} ×` : 'n/a');

function table(header, rows) {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => String(row[column] ?? '').length)));
  const line = (cells) => cells.map((cell, column) => (column === 0 ? String(cell ?? '').padEnd(widths[column]) : String(cell ?? '').padStart(widths[column]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function formatSection(title, header, rows) {
  return `\n${title}\n${table(header, rows)}`;
}

export function formatTargets(targets) {
  const verdict = (pass) => (pass === null ? 'n/a' : pass ? 'PASS' : 'MISS');
  return formatSection(
    'Targets (issues 8 and 23), ratios from this run',
    ['target', 'goal', 'measured', 'detail', ''],
    targets.map((t) => [t.name, t.target, t.value === null ? 'n/a' : String(t.value), t.detail ?? '', verdict(t.pass)]),
  );
}
