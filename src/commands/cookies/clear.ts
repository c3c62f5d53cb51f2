import { Command, Flags } from '@oclif/core';
import { cookiesCommand } from '../../cli/cookies-command.js';
import { PROFILE_FLAGS } from '../../plugins/auth-oauth2/command-flags.js';

export default class CookiesClear extends Command {
  static override summary = 'Forget the cookies kept for a profile (all, or those of one domain).';
  static override examples = [
    { description: 'Forget every cookie of the default profile', command: '<%= config.bin %> cookies clear' },
    { description: 'Only those of one site', command: '<%= config.bin %> cookies clear --domain api.example.com -p staging' },
  ];
  static override flags = {
    ...PROFILE_FLAGS,
    domain: Flags.string({ helpValue: 'DOMAIN', description: 'Only the cookies of this domain (and its subdomains).' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(CookiesClear);
    process.exitCode = await cookiesCommand('clear', flags);
  }
}
