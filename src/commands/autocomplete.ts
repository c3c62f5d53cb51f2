import { Args, Command } from '@oclif/core';
import { basename } from 'node:path';
import { SHELLS, completionScript, installInstructions, type Shell } from '../cli/completion-scripts.js';

export default class Autocomplete extends Command {
  static override summary = 'Shell completion for bash, zsh and fish: commands, flags, request files, --env, -p and -n values.';
  static override description = 'With SHELL, prints the completion script for it; without, how to install it for your shell ($SHELL). The script asks reqflow on each TAB, so it never needs installing again after an upgrade or a new plugin.';
  static override examples = [
    { description: 'How to install it', command: '<%= config.bin %> autocomplete' },
    { description: 'Install it for zsh', command: 'mkdir -p ~/.zfunc && <%= config.bin %> autocomplete zsh > ~/.zfunc/_<%= config.bin %>' },
    { description: 'Try it in the current bash', command: 'source <(<%= config.bin %> autocomplete bash)' },
  ];
  static override args = { shell: Args.string({ description: 'the shell', options: [...SHELLS], required: false }) };
  static override strict = true;

  async run(): Promise<void> {
    const { args } = (await this.parse(Autocomplete as never)) as { args: { shell?: Shell } };
    process.stdout.write(args.shell ? completionScript(args.shell, this.config.bin) : installInstructions(basename(process.env.SHELL ?? ''), this.config.bin));
  }
}
