import { Command, Flags } from '@oclif/core';
import { statusAction } from '../../plugins/auth-oauth2/cli-actions.js';
import { runOAuthCommand } from '../../plugins/auth-oauth2/command.js';
import { PROFILE_FLAGS } from '../../plugins/auth-oauth2/command-flags.js';

export default class OAuthStatus extends Command {
  static override summary = "Show the OAuth token of a profile: present, expiry, refresh, scopes.";
  static override description = 'The token itself is shown as ••• unless --show-token. Exits 0 when the profile has a usable token (valid, or renewable before the next request), 6 when it has none or it expired without a way to renew it.';
  static override examples = [
    { description: 'Status of the default profile', command: '<%= config.bin %> oauth status' },
    { description: 'As JSON, for scripts', command: '<%= config.bin %> oauth status -p staging --json' },
    { description: 'Log in only when needed', command: '<%= config.bin %> oauth status >/dev/null || <%= config.bin %> oauth login' },
  ];
  static override flags = {
    ...PROFILE_FLAGS,
    'show-token': Flags.boolean({ default: false, description: 'Print the access token instead of •••.' }),
    json: Flags.boolean({ default: false, description: 'Print the status as a JSON object.' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(OAuthStatus);
    process.exitCode = await runOAuthCommand(flags, (ctx) => statusAction(ctx, { showToken: flags['show-token'], json: flags.json }));
  }
}
