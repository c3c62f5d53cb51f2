import { Command } from '@oclif/core';
import { IMPORT_FLAGS, sourceArg } from '../../cli/import-flags.js';
import { importCommand } from '../../import/run-import.js';

export default class ImportOpenApi extends Command {
  static override summary = 'Turn an OpenAPI 3.0/3.1 or Swagger 2.0 description into .http files, one per tag.';
  static override description =
    'One request per operation (# @name operationId), parameters as {{variables}} defined in http-client.env.json with their examples, ' +
    'a body from the examples or made from the schema, the security schemes as headers (oauth2: a profiles file for reqflow oauth login), and the first server as baseUrl.';
  static override examples = [{ description: 'Import a spec into api/', command: '<%= config.bin %> import openapi openapi.yaml -o api' }];
  static override args = sourceArg('The OpenAPI or Swagger file (YAML or JSON); $refs to other files are resolved from its folder');
  static override flags = IMPORT_FLAGS;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ImportOpenApi);
    process.exitCode = await importCommand('openapi', args.source, flags);
  }
}
