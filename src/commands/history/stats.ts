import { Command, Flags } from '@oclif/core';
import { processHistoryIo } from '../../history/io.js';
import { historyStatsCommand } from '../../history/stats-command.js';
import { PROFILE_FLAGS } from '../../plugins/auth-oauth2/command-flags.js';

export default class HistoryStats extends Command {
  static override summary = 'Per request of the history: count, error rate, p50/p95/max duration, last status and the latest durations.';
  static override description = 'A request is its file and name. Errors are responses ≥ 400 and requests that got no response. RECENT shows the latest 20 durations from ▁ (the shortest of them) to █ (the longest).';
  static override examples = [
    { description: 'Every request kept for the default profile', command: '<%= config.bin %> history stats' },
    { description: 'The last week, as JSON lines', command: '<%= config.bin %> history stats --since 7d --json' },
  ];
  static override flags = {
    ...PROFILE_FLAGS,
    since: Flags.string({ helpValue: '7d|ISO', description: 'Only entries from this long ago (30m, 12h, 7d, 2w) or since this date or time (2026-11-01, 2026-11-01T09:00Z).' }),
    json: Flags.boolean({ description: 'One JSON object per request: file, name, count, errors, errorRate, p50Ms, p95Ms, maxMs, lastStatus, recentMs, sparkline.' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(HistoryStats);
    process.exitCode = await historyStatsCommand(flags, processHistoryIo());
  }
}
