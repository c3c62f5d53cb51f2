import { Command, Flags } from '@oclif/core';
import { processHistoryIo } from '../../history/io.js';
import { historyListCommand } from '../../history/list.js';
import { PROFILE_FLAGS } from '../../plugins/auth-oauth2/command-flags.js';

export default class History extends Command {
  static override summary = 'The requests sent in this project with a profile, newest first (secrets masked).';
  static override description =
    'Every request that `reqflow run`, `reqflow test` and the UI send is kept per project and profile: time, file and name, method, URL, status, duration, size, headers and bodies (the first 64 KiB, secrets masked). `--no-history` or a profile\'s "history": false keeps none.';
  static override examples = [
    { description: 'The latest 20 requests of the default profile', command: '<%= config.bin %> history' },
    { description: 'The latest 5 that mention "login", of the staging profile', command: '<%= config.bin %> history --grep login -n 5 -p staging' },
    { description: 'One exchange, then send it again', command: '<%= config.bin %> history show 3f2a9c && <%= config.bin %> history replay 3f2a9c' },
  ];
  static override flags = {
    ...PROFILE_FLAGS,
    grep: Flags.string({ helpValue: 'TEXT', description: 'Only the requests whose method, name, URL, file or status contains TEXT (any case).' }),
    limit: Flags.string({ char: 'n', helpValue: 'N', description: 'Show the latest N (default 20).' }),
    json: Flags.boolean({ description: 'One JSON object per request (id, time, project, profile, file, name, line, method, url, status, durationMs, size, error), newest first.' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(History);
    process.exitCode = await historyListCommand(flags, processHistoryIo());
  }
}
