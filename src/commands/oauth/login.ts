import { Command, Flags } from '@oclif/core';
import { loginAction } from '../../plugins/auth-oauth2/cli-actions.js';
import { parseWait, runOAuthCommand } from '../../plugins/auth-oauth2/command.js';
import { PROFILE_FLAGS } from '../../plugins/auth-oauth2/command-flags.js';

export default class OAuthLogin extends Command {
  static override summary = "Log in with OAuth 2.0 and keep the tokens in the profile's session.";
  static override description =
    "Runs the profile's OAuth flow and stores the access token as {{token}}, with its refresh token, expiry and scopes, in the profile's session. " +
    'The default is the authorization code flow in your browser (PKCE for public clients, the client secret for confidential ones): ' +
    'reqflow listens on oauth.redirectUrl (default http://localhost:8080/callback) for the one callback, and always prints the URL. ' +
    '--device uses the device flow (a URL and a code to enter on any device); a profile with "grant": "client_credentials" fetches a token without a browser.';
  static override examples = [
    { description: 'Log in with the default profile (opens the browser)', command: '<%= config.bin %> oauth login' },
    { description: 'Log in with a named profile', command: '<%= config.bin %> oauth login -p staging' },
    { description: 'Over SSH: only print the URL to open elsewhere', command: '<%= config.bin %> oauth login --no-browser' },
    { description: 'Device flow: open a URL on any device and enter the code shown', command: '<%= config.bin %> oauth login --device' },
    { description: 'Give up after 90 seconds instead of 5 minutes', command: '<%= config.bin %> oauth login --wait 90s' },
  ];
  static override flags = {
    ...PROFILE_FLAGS,
    browser: Flags.boolean({ allowNo: true, default: true, description: 'Open the browser for the login (--no-browser only prints the URL, e.g. over SSH).' }),
    device: Flags.boolean({ default: false, description: 'Use the device authorization grant (RFC 8628): print a URL and a code, wait for approval.' }),
    wait: Flags.string({ helpValue: 'DURATION', default: '5m', description: 'How long to wait for the browser or the device approval (e.g. 90s, 5m; a plain number is seconds).' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(OAuthLogin);
    process.exitCode = await runOAuthCommand(flags, (ctx) => loginAction(ctx, { browser: flags.browser, device: flags.device, waitMs: parseWait(flags.wait) }));
  }
}
