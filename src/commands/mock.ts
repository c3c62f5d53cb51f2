import { Args, Command, Flags } from '@oclif/core';
import { DEFAULT_IMPORT_MAX_BYTES } from '../cli/import-flags.js';
import { mockCommand, type MockFlags } from '../mock/run-mock.js';

export default class Mock extends Command {
  static override summary = 'Serve canned responses from a mock file (restcli\'s .mock.yaml format) or an OpenAPI document.';
  static override description =
    'Routes match by method and path (exact, prefix or regex, first match wins) and answer with a status, headers and a body — text, YAML sent as JSON, or a file — templated from the request ({{request.body.$.name}}, {{request.query.page}}, {{params.id}}), after an optional delay; `sse` routes stream events. Listens on 127.0.0.1 unless the file or --host says otherwise; reloads when the file changes; Ctrl-C stops it. The format: docs/mock.md.';
  static override examples = [
    { description: 'Serve a mock file', command: '<%= config.bin %> mock api.mock.yaml' },
    { description: 'On a free port (printed), logging each request', command: '<%= config.bin %> mock api.mock.yaml --port 0 --log' },
    { description: 'Every operation of an OpenAPI document, with its example response', command: '<%= config.bin %> mock --from-openapi openapi.yaml --port 4010' },
  ];
  static override args = { file: Args.string({ description: 'Mock file (.mock.yaml, .mock.yml, .mock.json)', required: false }) };
  static override flags = {
    port: Flags.integer({ helpValue: 'PORT', min: 0, max: 65535, description: 'Listen on this port instead of the file\'s (0: a free one; the line printed at start says which).' }),
    host: Flags.string({ helpValue: 'HOST', description: 'Listen on this address instead of the file\'s (default 127.0.0.1; 0.0.0.0 opens it to the network).' }),
    'from-openapi': Flags.string({ helpValue: 'SPEC', description: 'Serve each operation of this OpenAPI (3.x) or Swagger (2.0) document with its example response.' }),
    'max-size': Flags.integer({ helpValue: 'BYTES', min: 1, default: DEFAULT_IMPORT_MAX_BYTES, description: 'The largest file the mock reads (the mock file, the OpenAPI document, each file its $refs name), as `reqflow import`\'s; a larger one is exit 2 naming it and its size.' }),
    log: Flags.boolean({ description: 'Print one line per request to stderr (method, path, status, ms), as `logging: true` does.' }),
    watch: Flags.boolean({ default: true, allowNo: true, description: 'Reload the routes when the file changes (--no-watch: never).' }),
    debug: Flags.boolean({ description: 'Print stack traces with errors.' }),
  };
  static override strict = true;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Mock);
    process.exitCode = await mockCommand(args.file, flags as MockFlags);
  }
}
