import { Command, Flags } from '@oclif/core';
import { logoutAction } from '../../plugins/auth-oauth2/cli-actions.js';
import { runOAuthCommand } from '../../plugins/auth-oauth2/command.js';
import { PROFILE_FLAGS } from '../../plugins/auth-oauth2/command-flags.js';

export default class OAuthLogout extends Command {
  static override summary = "Revoke a profile's OAuth tokens and remove them from its session.";
  static override description =
    'Revokes the refresh and access tokens at the authorization server (RFC 7009) when it has a revocation endpoint (oauth.revocationUrl, or found by discovery from oauth.issuer), then forgets the access token ({{token}}), the refresh token, expiry and scopes stored for the profile. A server that cannot be reached only gets a warning: the tokens are removed from this machine in any case. The next request that needs a token asks you to log in again (client credentials profiles fetch a new one).';
  static override examples = [
    { description: 'Log out of the default profile', command: '<%= config.bin %> oauth logout' },
    { description: 'Log out of a named profile', command: '<%= config.bin %> oauth logout -p staging' },
    { description: 'Forget the tokens here without telling the server', command: '<%= config.bin %> oauth logout --no-revoke' },
  ];
  static override flags = {
    ...PROFILE_FLAGS,
    revoke: Flags.boolean({ default: true, allowNo: true, description: 'Revoke the tokens at the authorization server first (--no-revoke: only forget them here).' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(OAuthLogout);
    process.exitCode = await runOAuthCommand(flags, (ctx) => logoutAction(ctx, { revoke: flags.revoke }));
  }
}
