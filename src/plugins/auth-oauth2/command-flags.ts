import { Flags } from '@oclif/core';

/** Flags every `reqflow oauth` command has, worded like `reqflow run`'s. */
export const PROFILE_FLAGS = {
  profile: Flags.string({ char: 'p', helpValue: 'NAME', description: 'Profile to use (default: $REQFLOW_PROFILE, else the one named "default", else the first).' }),
  profiles: Flags.string({ helpValue: 'PATH', description: 'Profiles file (default: .profiles.json in the current folder or its parents).' }),
  debug: Flags.boolean({ default: false, description: 'Show stack traces of errors.' }),
};
