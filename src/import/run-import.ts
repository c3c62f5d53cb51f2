/**
 * `reqflow import KIND SOURCE`: reads the source with the kind's importer, loaded only here (the
 * parsers are large, and no other command needs them), and writes the files. Warnings go to
 * stderr, one line per file written to stdout; errors are one `reqflow: …` line, exit 2.
 */
import { resolve } from 'node:path';
import { UsageError } from '../core/errors/index.js';
import { SecretRegistry } from '../core/mask.js';
import { DEFAULT_IMPORT_MAX_BYTES } from '../cli/import-flags.js';
import { exitCodeOf } from '../cli/report-error.js';
import { warningLine } from '../report/render/visible.js';
import type { Imported, ImportOptions } from './model.js';
import { readStdin } from './source.js';
import { writeImport } from './write-import.js';

export const IMPORT_KINDS = ['curl', 'openapi', 'postman', 'har'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export interface ImportFlags {
  output?: string;
  force?: boolean;
  'env-name'?: string;
  environment?: string;
  cookies?: boolean;
  'per-host'?: boolean;
  'max-size'?: number;
  debug?: boolean;
}

type Importer = (source: string, options: ImportOptions) => Promise<Imported>;

async function importerOf(kind: ImportKind): Promise<Importer> {
  switch (kind) {
    case 'curl':
      return (await import('./curl/index.js')).importCurl;
    case 'openapi':
      return (await import('./openapi/index.js')).importOpenApi;
    case 'postman':
      return (await import('./postman/index.js')).importPostman;
    case 'har':
      return (await import('./har/index.js')).importHar;
  }
}

export function importCommand(kind: ImportKind, source: string, flags: ImportFlags): Promise<number> {
  const cwd = process.cwd();
  // Warnings quote the document's names and values: its escape sequences shown, never run by the terminal.
  const warn = (message: string): void => void process.stderr.write(`${warningLine(message)}\n`);
  return exitCodeOf(
    async () => {
      const envName = flags['env-name'];
      if (envName !== undefined && !/^[A-Za-z0-9_.-]+$/.test(envName)) throw new UsageError(`--env-name ${JSON.stringify(envName)}: an environment name is letters, digits, "_", "-" and "."`);
      const maxBytes = flags['max-size'] ?? DEFAULT_IMPORT_MAX_BYTES;
      const outDir = resolve(cwd, flags.output ?? '.');
      const importer = await importerOf(kind);
      const imported = await importer(source, {
        outDir,
        cwd,
        ...(flags['env-name'] !== undefined ? { envName: flags['env-name'] } : {}),
        ...(flags.environment !== undefined ? { environment: flags.environment } : {}),
        cookies: flags.cookies === true,
        perHost: flags['per-host'] === true,
        stdin: () => readStdin(maxBytes),
        maxBytes,
        warn,
      });
      const lines = await writeImport(imported, outDir, { force: flags.force === true, cwd });
      process.stdout.write(`${lines.join('\n')}\n`);
      return 0;
    },
    process.stderr,
    () => ({ debug: flags.debug === true, secrets: new SecretRegistry() }),
    () => undefined,
  );
}
