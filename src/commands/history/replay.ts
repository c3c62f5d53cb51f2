import { Args, Command } from '@oclif/core';
import { toOclifFlags } from '../../cli/oclif-flags.js';
import { processIo } from '../../cli/run-file.js';
import { collectThirdPartyPlugins, type HookRunner } from '../../pipeline/third-party.js';
import { REPLAY_FLAGS, historyReplayCommand, type ReplayFlags } from '../../history/replay.js';

export default class HistoryReplay extends Command {
  static override summary = 'Send a request of the history again, from its file and name, with today\'s variables and secrets.';
  static override description =
    'Runs the request as `reqflow run FILE -n NAME -p PROFILE` would (with the profiles file and --env of the first run): values come from today\'s session, profile and environment, never from the masked copy in the history. Exit 2 when the file is gone or has no request of that name any more.';
  static override examples = [
    { description: 'Send entry 3f2a9c again', command: '<%= config.bin %> history replay 3f2a9c' },
    { description: 'The same, showing headers', command: '<%= config.bin %> history replay 3f2a9c -v' },
  ];
  static override args = { id: Args.string({ description: 'The entry\'s id, or a unique beginning of it (at least 4 digits)', required: true }) };
  static override flags = toOclifFlags(REPLAY_FLAGS);

  async run(): Promise<void> {
    const { args, flags } = (await this.parse(HistoryReplay as never)) as { args: { id: string }; flags: Record<string, unknown> };
    process.exitCode = await historyReplayCommand(args.id, flags as ReplayFlags, processIo(), (warn) => collectThirdPartyPlugins(this.config as unknown as HookRunner, warn));
  }
}
