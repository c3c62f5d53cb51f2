import { Args, Flags } from '@oclif/core';

/** The flags every `reqflow import KIND` command has. */
export const IMPORT_FLAGS = {
  output: Flags.string({ char: 'o', helpValue: 'DIR', default: '.', description: 'Folder to write the .http files and http-client.env.json to (made if missing).' }),
  force: Flags.boolean({ default: false, description: 'Replace files that exist (without it, an existing file is exit 2 and nothing is written).' }),
  'env-name': Flags.string({ helpValue: 'NAME', description: 'The environment the variables are written under, for --env NAME (default: dev; Postman: the environment file\'s name).' }),
  debug: Flags.boolean({ default: false, description: 'Show stack traces of errors.' }),
};

export const sourceArg = (description: string) => ({ source: Args.string({ description, required: true }) });
