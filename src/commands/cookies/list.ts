import { Command, Flags } from '@oclif/core';
import { cookiesCommand } from '../../cli/cookies-command.js';
import { PROFILE_FLAGS } from '../../plugins/auth-oauth2/command-flags.js';

export default class CookiesList extends Command {
  static override summary = 'List the cookies kept for a profile (names, domains, expiry; never values).';
  static override examples = [{ description: 'The cookies of the default profile', command: '<%= config.bin %> cookies list' }];
  static override flags = {
    ...PROFILE_FLAGS,
    domain: Flags.string({ helpValue: 'DOMAIN', description: 'Only the cookies of this domain (and its subdomains).' }),
    json: Flags.boolean({ description: 'One JSON object: {profile, cookies: [{domain, path, name, expires, secure, httpOnly}]}.' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(CookiesList);
    process.exitCode = await cookiesCommand('list', flags);
  }
}
