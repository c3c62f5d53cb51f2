import { Args, Command, Flags } from '@oclif/core';
import { collectThirdPartyPlugins, type HookRunner } from '../core/third-party.js';
import { RUN_EXAMPLES, RUN_FLAGS, type FlagSpec, type RawRunFlags } from '../cli/run-flags.js';
import { processIo, runFileCommand } from '../cli/run-file.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- oclif's flag types are invariant; the table is checked by FlagSpec
type OclifFlag = any;

/** oclif flags from the run flag table; `names` picks a subset (the `tui` command shares some). */
export function toOclifFlags(names?: readonly string[]): Record<string, OclifFlag> {
  const flags: Record<string, OclifFlag> = {};
  for (const [name, spec] of Object.entries(RUN_FLAGS) as Array<[string, FlagSpec]>) {
    if (names && !names.includes(name)) continue;
    const common = { description: spec.description, ...(spec.char ? { char: spec.char as 'e' } : {}) };
    flags[name] =
      spec.type === 'boolean'
        ? Flags.boolean({ ...common, ...(spec.allowNo ? { allowNo: true } : {}), ...(typeof spec.default === 'boolean' ? { default: spec.default } : {}) })
        : Flags.string({
            ...common,
            ...(spec.multiple ? { multiple: true as const } : {}),
            ...(spec.helpValue ? { helpValue: spec.helpValue } : {}),
            ...(spec.options ? { options: [...spec.options] } : {}),
            ...(typeof spec.default === 'string' ? { default: spec.default } : {}),
          } as Parameters<typeof Flags.string>[0]);
  }
  return flags;
}

export default class Run extends Command {
  static override summary = 'Send the requests of a request file (HTTP text, YAML or JSON).';
  static override description = 'Runs every request of FILE in order (or those picked with -n), through parse → substitute → auth → transform → send → render. Later requests see session values that earlier ones set. `reqflow FILE` does the same.';
  static override examples = RUN_EXAMPLES;
  static override args = { file: Args.string({ description: 'Request file (.http, .rest, .yaml, .yml, .json)', required: true }) };
  static override flags = toOclifFlags();
  static override strict = true;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Run as never) as { args: { file: string }; flags: Record<string, unknown> };
    const code = await runFileCommand(args.file, flags as RawRunFlags, processIo(), (warn) => collectThirdPartyPlugins(this.config as unknown as HookRunner, warn));
    process.exitCode = code;
  }
}
