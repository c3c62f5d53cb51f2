import { Command, Flags } from '@oclif/core';
import { IMPORT_FLAGS, sourceArg } from '../../cli/import-flags.js';
import { importCommand } from '../../import/run-import.js';

export default class ImportPostman extends Command {
  static override summary = 'Turn a Postman collection (v2.0 or v2.1) into .http files, one per folder.';
  static override description =
    'Folders become files (nested folders, sub-folders), collection variables and the --environment file become http-client.env.json, ' +
    'auth is inherited from the collection and folders, and pre-request and test scripts become JetBrains handlers where the pm API has an equivalent ' +
    '(the rest is kept as comments, with a warning).';
  static override examples = [
    { description: 'A collection and its environment', command: '<%= config.bin %> import postman api.postman_collection.json --environment staging.postman_environment.json -o api' },
  ];
  static override args = sourceArg('The collection, exported from Postman as Collection v2.1 (or v2.0)');
  static override flags = {
    ...IMPORT_FLAGS,
    environment: Flags.string({ helpValue: 'FILE', description: 'A Postman environment export: its values join the collection variables.' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ImportPostman);
    process.exitCode = await importCommand('postman', args.source, flags);
  }
}
