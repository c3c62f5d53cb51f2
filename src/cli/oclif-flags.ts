import { Flags } from '@oclif/core';
import { RUN_FLAGS, type FlagSpec } from './run-flags.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- oclif's flag types are invariant; the table is checked by FlagSpec
type OclifFlag = any;

/** oclif flags from a flag table (default: run's); `names` picks a subset (the `tui` command shares some). */
export function toOclifFlags(names?: readonly string[], table: Record<string, FlagSpec> = RUN_FLAGS): Record<string, OclifFlag> {
  const flags: Record<string, OclifFlag> = {};
  for (const [name, spec] of Object.entries(table)) {
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
