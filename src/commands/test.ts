import { Args, Command } from '@oclif/core';
import { toOclifFlags } from '../cli/oclif-flags.js';
import { processIo } from '../cli/run-file.js';
import { TEST_EXAMPLES, TEST_FLAGS, type RawTestFlags } from '../cli/test-flags.js';
import { testCommand } from '../cli/test-files.js';
import { collectThirdPartyPlugins, type HookRunner } from '../pipeline/third-party.js';

export default class Test extends Command {
  static override summary = 'Run request files as tests: their requests in order, their checks, a summary and CI reports.';
  static override description =
    'PATH is a request file, a folder (searched recursively for .http, .rest and request YAML/JSON files) or a glob; default: the current folder. Each file\'s requests run in order with their chaining ({{login.response.body.$.token}}, # @capture, scripts) and checks (?? lines, client.test, restcli expectations). Exit 0 when everything passed, 1 when a check failed, else the first error\'s code.';
  static override examples = TEST_EXAMPLES;
  static override args = { path: Args.string({ description: 'Request files, folders or globs', required: false }) };
  static override flags = toOclifFlags(undefined, TEST_FLAGS);
  static override strict = false;

  async run(): Promise<void> {
    const { argv, flags } = (await this.parse(Test as never)) as { argv: string[]; flags: Record<string, unknown> };
    process.exitCode = await testCommand(argv, flags as RawTestFlags, processIo(), (warn) => collectThirdPartyPlugins(this.config as unknown as HookRunner, warn));
  }
}
