import { Args, Command, Flags } from '@oclif/core';
import { processHistoryIo } from '../../history/io.js';
import { historyShowCommand } from '../../history/show.js';
import { PROFILE_FLAGS } from '../../plugins/auth-oauth2/command-flags.js';

export default class HistoryShow extends Command {
  static override summary = 'One request of the history and its response: headers and bodies as kept (secrets masked).';
  static override examples = [{ description: 'The exchange of an entry that `reqflow history` lists', command: '<%= config.bin %> history show 3f2a9c' }];
  static override args = { id: Args.string({ description: 'The entry\'s id, or a unique beginning of it (at least 4 digits)', required: true }) };
  static override flags = {
    profiles: PROFILE_FLAGS.profiles,
    debug: PROFILE_FLAGS.debug,
    json: Flags.boolean({ description: 'The entry as stored: one JSON object.' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(HistoryShow);
    process.exitCode = await historyShowCommand(args.id, flags, processHistoryIo());
  }
}
