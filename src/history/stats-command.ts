/** `reqflow history stats [--since 7d|ISO]`: per request, how often, how failing, how fast. */
import { UsageError } from '../core/errors/index.js';
import { SecretRegistry } from '../core/mask.js';
import { shownPath } from '../core/resolve-path.js';
import { exitCodeOf } from '../cli/report-error.js';
import { nothingKept, shownDuration, shownStatus, table } from './format.js';
import type { HistoryIo } from './io.js';
import { forEachSummary, profileFiles } from './read.js';
import { historyScope, type ScopeFlags } from './scope.js';
import { StatsTally } from './stats.js';
import { visibleJson } from '../report/render/visible.js';

export interface StatsFlags extends ScopeFlags {
  since?: string;
  json?: boolean;
  debug?: boolean;
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
/** The earliest time a Date holds: `--since 99999999w` means since ever. */
const EARLIEST = -8.64e15;

/** `--since 7d` (s, m, h, d, w before now) or an ISO date or time: the earliest entry counted (epoch ms). */
function sinceOf(value: string, now: number): number {
  const relative = /^(\d+)\s*([smhdw])$/.exec(value.trim());
  if (relative) return Math.max(now - Number(relative[1]) * (UNITS[relative[2] as string] as number), EARLIEST);
  const time = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) throw new UsageError(`--since expects a duration such as 30m, 12h, 7d or 2w, or an ISO date, got "${value.slice(0, 40)}"`);
  return time;
}

export function historyStatsCommand(flags: StatsFlags, io: HistoryIo): Promise<number> {
  return exitCodeOf(
    async () => {
      // Entries' times are UTC ISO strings: compared as text, in the order of time.
      const since = flags.since === undefined ? undefined : new Date(sinceOf(flags.since, Date.now())).toISOString();
      const scope = await historyScope(flags, io);
      const tally = new StatsTally();
      let cut = 0;
      await forEachSummary(profileFiles(scope.path), (entry) => {
        if (since !== undefined && entry.time < since) return;
        tally.add(entry);
        if (entry.cut) cut++;
      });
      const stats = tally.result();
      if (flags.json) {
        io.stdout.write(stats.map((line) => `${visibleJson(JSON.stringify(line))}\n`).join(''));
        return 0;
      }
      if (stats.length === 0) {
        io.stderr.write(nothingKept(scope, flags.since !== undefined ? ` since ${flags.since}` : ''));
        return 0;
      }
      const rows = stats.map((s) => [
        `${shownPath(s.file, io.cwd)} ${s.name}`,
        String(s.count),
        `${(s.errorRate * 100).toFixed(1)} %`,
        shownDuration(s.p50Ms),
        shownDuration(s.p95Ms),
        shownDuration(s.maxMs),
        shownStatus({ status: s.lastStatus }),
        s.sparkline,
      ]);
      io.stdout.write(table(['REQUEST', 'COUNT', 'ERRORS', 'P50', 'P95', 'MAX', 'LAST', 'RECENT'], rows));
      if (cut > 0) io.stderr.write(`reqflow: note: ${cut} of these entries had a URL or header over the history's limits, kept cut (reqflow history marks them)\n`);
      return 0;
    },
    io.stderr,
    () => ({ debug: flags.debug === true, secrets: new SecretRegistry() }),
    () => undefined,
  );
}
