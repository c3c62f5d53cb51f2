import { Command, Flags } from '@oclif/core';
import { IMPORT_FLAGS, sourceArg } from '../../cli/import-flags.js';
import { importCommand } from '../../import/run-import.js';

export default class ImportHar extends Command {
  static override summary = 'Turn a HAR file (a browser\'s network log) into a .http file.';
  static override description =
    'Each entry becomes a request, in order, in one file named after the HAR (--per-host: one file per host). HTTP/2 pseudo-headers and headers the ' +
    'client computes (Content-Length, Host, Connection) are dropped; cookies only with --cookies, into http-client.private.env.json.';
  static override examples = [{ description: 'A session recorded in the browser\'s developer tools', command: '<%= config.bin %> import har session.har -o recorded --per-host' }];
  static override args = sourceArg('The HAR file');
  static override flags = {
    ...IMPORT_FLAGS,
    cookies: Flags.boolean({ default: false, description: 'Keep the requests\' Cookie headers (as secret variables).' }),
    'per-host': Flags.boolean({ default: false, description: 'One .http file per host instead of one for the whole HAR.' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ImportHar);
    process.exitCode = await importCommand('har', args.source, flags);
  }
}
