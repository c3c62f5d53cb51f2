/** `reqflow history`: the latest requests of the project and profile, newest first. */
import { UsageError } from '../core/errors/index.js';
import { SecretRegistry } from '../core/mask.js';
import { exitCodeOf } from '../cli/report-error.js';
import type { HistorySummary } from './entry.js';
import { cutFields, nothingKept, shownDuration, shownStatus, shownTime, table } from './format.js';
import type { HistoryIo } from './io.js';
import { forEachSummary, profileFiles } from './read.js';
import { historyScope, type ScopeFlags } from './scope.js';
import { visibleJson } from '../report/render/visible.js';

export interface ListFlags extends ScopeFlags {
  grep?: string;
  limit?: string;
  json?: boolean;
  debug?: boolean;
}

const DEFAULT_LIMIT = 20;

function limitOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`-n expects a positive whole number, got "${value.slice(0, 40)}"`);
  return Number(value);
}

/** What `--grep` looks in: method, name, URL, file and status. */
function matches(entry: HistorySummary, needle: string): boolean {
  return `${entry.method} ${entry.name} ${entry.url} ${entry.file} ${shownStatus(entry)}`.toLowerCase().includes(needle);
}

export function historyListCommand(flags: ListFlags, io: HistoryIo): Promise<number> {
  return exitCodeOf(
    async () => {
      const limit = limitOf(flags.limit);
      const scope = await historyScope(flags, io);
      const needle = flags.grep?.toLowerCase();
      // The last `limit` matches, in a list trimmed now and then: memory stays bounded by the limit.
      let latest: HistorySummary[] = [];
      await forEachSummary(profileFiles(scope.path), (entry) => {
        if (needle !== undefined && !matches(entry, needle)) return;
        latest.push(entry);
        if (latest.length >= 2 * limit) latest = latest.slice(-limit);
      });
      const newestFirst = latest.slice(-limit).reverse();
      if (flags.json) {
        io.stdout.write(newestFirst.map((entry) => `${visibleJson(JSON.stringify(entry))}\n`).join(''));
        return 0;
      }
      if (newestFirst.length === 0) {
        io.stderr.write(nothingKept(scope, needle !== undefined ? ` matching "${flags.grep}"` : ''));
        return 0;
      }
      const rows = newestFirst.map((e) => [e.id, shownTime(e.time), e.method, e.name, shownStatus(e), shownDuration(e.durationMs), e.cut ? `${e.url}  [cut: ${cutFields(e.cut)}]` : e.url]);
      io.stdout.write(table(['ID', 'TIME', 'METHOD', 'NAME', 'STATUS', 'DURATION', 'URL'], rows));
      return 0;
    },
    io.stderr,
    () => ({ debug: flags.debug === true, secrets: new SecretRegistry() }),
    () => undefined,
  );
}
