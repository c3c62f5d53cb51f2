import { Command } from '@oclif/core';
import { IMPORT_FLAGS, sourceArg } from '../../cli/import-flags.js';
import { importCommand } from '../../import/run-import.js';

export default class ImportCurl extends Command {
  static override summary = 'Turn curl commands (from API docs, or "Copy as cURL" in a browser) into a .http file.';
  static override description =
    'SOURCE is the command itself, a file holding one or more commands, or - for standard input. Every common curl option is carried over; ' +
    'credentials (-u, Authorization, cookies, secret-looking headers and query parameters) become variables in http-client.private.env.json. ' +
    'An option that changes what is sent and that a request file cannot say is exit 2 naming it; an unknown option is a warning.';
  static override examples = [
    { description: 'One command', command: `<%= config.bin %> import curl 'curl -u alice:s3cret https://api.example.com/me'` },
    { description: 'What the browser copied, from the clipboard', command: '<%= config.bin %> import curl - -o api < copied.sh' },
  ];
  static override args = sourceArg('A curl command, a file of curl commands, or - (standard input)');
  static override flags = IMPORT_FLAGS;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ImportCurl);
    process.exitCode = await importCommand('curl', args.source, flags);
  }
}
