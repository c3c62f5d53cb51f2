import { Args, Flags } from '@oclif/core';

/**
 * The most bytes a file an import reads may have, unless `--max-size` says otherwise: a parsed
 * document takes several times its size (a 64 MiB HAR of 115,000 entries, 460 MB; one of 331 MB
 * took 2.3 GB). The largest request file reqflow runs is as large.
 */
export const DEFAULT_IMPORT_MAX_BYTES = 64 * 1024 * 1024;

/** The flags every `reqflow import KIND` command has. */
export const IMPORT_FLAGS = {
  output: Flags.string({ char: 'o', helpValue: 'DIR', default: '.', description: 'Folder to write the .http files and http-client.env.json to (made if missing).' }),
  force: Flags.boolean({ default: false, description: 'Replace files that exist (without it, an existing file is exit 2 and nothing is written).' }),
  'env-name': Flags.string({ helpValue: 'NAME', description: 'The environment the variables are written under, for --env NAME (default: dev; Postman: the environment file\'s name).' }),
  'max-size': Flags.integer({ helpValue: 'BYTES', min: 1, default: DEFAULT_IMPORT_MAX_BYTES, description: 'The largest file the import reads (the document, standard input, a Postman environment, an OpenAPI $ref\'d file, a curl @file); a larger one is exit 2 naming it and its size.' }),
  debug: Flags.boolean({ default: false, description: 'Show stack traces of errors.' }),
};

export const sourceArg = (description: string) => ({ source: Args.string({ description, required: true }) });
