import { Args, Command } from '@oclif/core';
import { collectThirdPartyPlugins, type HookRunner } from '../pipeline/third-party.js';
import { toOclifFlags } from '../cli/oclif-flags.js';
import { RUN_EXAMPLES, type RawRunFlags } from '../cli/run-flags.js';
import { processIo, runFileCommand } from '../cli/run-file.js';

export default class Run extends Command {
  static override summary = 'Send the requests of a request file (HTTP text, YAML or JSON).';
  static override description = 'Runs every request of FILE in order (or those picked with -n), through parse → substitute → auth → transform → send → render. Later requests see session values that earlier ones set. `reqflow FILE` does the same.';
  static override examples = RUN_EXAMPLES;
  static override args = { file: Args.string({ description: 'Request file (.http, .rest, .ws, .yaml, .yml, .json)', required: true }) };
  static override flags = toOclifFlags();
  static override strict = true;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Run as never) as { args: { file: string }; flags: Record<string, unknown> };
    const code = await runFileCommand(args.file, flags as RawRunFlags, processIo(), (warn) => collectThirdPartyPlugins(this.config as unknown as HookRunner, warn));
    process.exitCode = code;
  }
}
