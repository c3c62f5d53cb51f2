import { Args, Command } from '@oclif/core';
import { processIo } from '../cli/run-file.js';
import type { RawRunFlags } from '../cli/run-flags.js';
import { collectThirdPartyPlugins, type HookRunner } from '../pipeline/third-party.js';
import { TUI_FLAGS, launchTui } from '../tui/launch.js';
import { toOclifFlags } from '../cli/oclif-flags.js';

export default class Tui extends Command {
  static override summary = 'Browse, send and authenticate from a keyboard-driven terminal UI (the default command).';
  static override description =
    'Opens a terminal UI over the request files under DIR (default: the current folder): a request tree, the request after substitution (secrets as •••), the response, and a status bar with the profile and the token state. Every request goes through the same pipeline as `reqflow run`. Press ? in the UI for the keys. `reqflow` with no arguments does the same.';
  static override examples = [
    { description: 'Open the UI over the current folder', command: '<%= config.bin %>' },
    { description: 'Open it over a folder, with a profile and a variable', command: '<%= config.bin %> tui api/ -p staging -e user=alice' },
  ];
  static override args = { dir: Args.string({ description: 'Folder with request files (default: the current folder)', required: false }) };
  static override flags = toOclifFlags(TUI_FLAGS);
  static override strict = true;

  async run(): Promise<void> {
    const { args, flags } = (await this.parse(Tui as never)) as { args: { dir?: string }; flags: Record<string, unknown> };
    process.exitCode = await launchTui(args.dir, flags as RawRunFlags, processIo(), (warn) => collectThirdPartyPlugins(this.config as unknown as HookRunner, warn));
  }
}
