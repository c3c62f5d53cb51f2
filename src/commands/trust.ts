import { Args, Command, Flags } from '@oclif/core';
import { trustCommand } from '../trust/trust-command.js';

export default class Trust extends Command {
  static override summary = 'Let the request files of a project run programs: resterm\'s # @auth command, require() in httpyac scripts, httpyac\'s JavaScript config.';
  static override description = 'The project is found as sessions find it (the profiles file\'s folder, else the nearest folder with .git, package.json or another project marker). Kept in the user\'s config folder; --trust on run or test trusts one invocation only.';
  static override args = { dir: Args.string({ description: 'A folder of the project (default: the current folder).' }) };
  static override examples = [
    { description: 'Trust the project of the current folder', command: '<%= config.bin %> trust' },
    { description: 'The trusted projects', command: '<%= config.bin %> trust --list' },
    { description: 'Trust it no more', command: '<%= config.bin %> trust --revoke ../api' },
  ];
  static override flags = {
    list: Flags.boolean({ description: 'List the trusted projects.' }),
    revoke: Flags.boolean({ description: 'Remove the project from the trusted ones.' }),
    profiles: Flags.string({ helpValue: 'PATH', description: 'Profiles file whose folder is the project (as run --profiles).' }),
    debug: Flags.boolean({ default: false, description: 'Show stack traces of errors.' }),
  };

  async run(): Promise<void> {
    const { flags, args } = await this.parse(Trust);
    process.exitCode = await trustCommand(flags, args.dir, { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
  }
}
