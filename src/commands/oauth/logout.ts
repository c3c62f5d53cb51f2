import { Command } from '@oclif/core';
import { logoutAction } from '../../plugins/auth-oauth2/cli-actions.js';
import { runOAuthCommand } from '../../plugins/auth-oauth2/command.js';
import { PROFILE_FLAGS } from '../../plugins/auth-oauth2/command-flags.js';

export default class OAuthLogout extends Command {
  static override summary = "Remove a profile's OAuth tokens from its session.";
  static override description = 'Forgets the access token ({{token}}), the refresh token, expiry and scopes stored for the profile. The next request that needs a token asks you to log in again (client credentials profiles fetch a new one).';
  static override examples = [
    { description: 'Log out of the default profile', command: '<%= config.bin %> oauth logout' },
    { description: 'Log out of a named profile', command: '<%= config.bin %> oauth logout -p staging' },
  ];
  static override flags = { ...PROFILE_FLAGS };

  async run(): Promise<void> {
    const { flags } = await this.parse(OAuthLogout);
    process.exitCode = await runOAuthCommand(flags, (ctx) => logoutAction(ctx));
  }
}
