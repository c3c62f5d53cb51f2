/** How the history commands show times, durations, statuses and tables. */
import { visible } from '../report/render/visible.js';
import type { HistoryCut, HistoryEntry } from './entry.js';
import type { HistoryScope } from './scope.js';

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** `2026-11-25 18:50:03`, local time. */
export function shownTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.getFullYear()}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())} ${pad2(date.getHours())}:${pad2(date.getMinutes())}:${pad2(date.getSeconds())}`;
}

/** `12 ms`, `1.25 s`. */
export function shownDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/**
 * The status code, or `ERR` for a request that got no response (a network or TLS error); a
 * response that came but failed after its status (a body cut short: exit 4) is `200 ERR`, never a
 * plain success.
 */
export function shownStatus(entry: Pick<HistoryEntry, 'status'> & { error?: unknown }): string {
  if (entry.status === undefined) return 'ERR';
  return entry.error === undefined ? String(entry.status) : `${entry.status} ERR`;
}

/** Rows as aligned columns (the last one unpadded), every cell with its control characters made visible. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const cells = [header, ...rows].map((row) => row.map((cell) => visible(cell)));
  const widths = header.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  const line = (row: readonly string[]): string => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ');
  return `${cells.map(line).join('\n')}\n`;
}

/** The line (stderr) when nothing matched: whose history was read, and with which filter. */
export function nothingKept(scope: HistoryScope, filter = ''): string {
  return `${visible(`reqflow: no history${filter} for profile "${scope.profile}" in ${scope.project}`)}\n`;
}

/** What the history cut of an entry, for a note: `request header X-Big (5242880 characters), the URL (…)`. */
export function cutFields(cut: HistoryCut): string {
  const length = (chars: number): string => `(${chars} characters)`;
  const headers = (side: string, byName: Record<string, number> = {}): string[] => Object.entries(byName).map(([name, chars]) => `${side} header ${name} ${length(chars)}`);
  const fields = [
    ...(cut.url !== undefined ? [`the URL ${length(cut.url)}`] : []),
    ...headers('request', cut.request),
    ...headers('response', cut.response),
    ...(cut.error !== undefined ? [`the error message ${length(cut.error)}`] : []),
  ];
  return fields.join(', ');
}
