import { Args, Command } from '@oclif/core';
import { globalsCommand } from '../../cli/globals-command.js';
import { PROFILE_FLAGS } from '../../plugins/auth-oauth2/command-flags.js';

export default class GlobalsClear extends Command {
  static override summary = 'Forget the script globals kept for this project and a profile (all, or the ones named).';
  static override strict = false;
  static override args = { name: Args.string({ description: 'A global to forget (several may be named); none: all of them.' }) };
  static override examples = [
    { description: 'Forget every global of the default profile', command: '<%= config.bin %> globals clear' },
    { description: 'Only one', command: '<%= config.bin %> globals clear BOSS_AUTHORIZATION -p staging' },
  ];
  static override flags = { ...PROFILE_FLAGS };

  async run(): Promise<void> {
    const { flags, argv } = await this.parse(GlobalsClear);
    process.exitCode = await globalsCommand('clear', flags, argv as string[]);
  }
}
