import { Command, Flags } from '@oclif/core';
import { globalsCommand } from '../../cli/globals-command.js';
import { PROFILE_FLAGS } from '../../plugins/auth-oauth2/command-flags.js';

export default class GlobalsList extends Command {
  static override summary = 'List the script globals (client.global.set, $global) kept for this project and a profile; values masked unless --show.';
  static override examples = [
    { description: 'The names kept for the default profile', command: '<%= config.bin %> globals list' },
    { description: 'With their values', command: '<%= config.bin %> globals list --show -p staging' },
  ];
  static override flags = {
    ...PROFILE_FLAGS,
    show: Flags.boolean({ description: 'Print the values (else •••: they are often tokens).' }),
    json: Flags.boolean({ description: 'One JSON object: {profile, project, globals: {name: value}}.' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(GlobalsList);
    process.exitCode = await globalsCommand('list', flags);
  }
}
