import { copyFileSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ROOT, runCli, tempDir, type CliResult } from './cli.js';

export const IMPORT_FIXTURES = join(ROOT, 'test', 'fixtures', 'import');

/**
 * A fixture copied into a temporary folder, its hosts pointed at a local server (`hosts`:
 * origin in the fixture → URL of the server), with the files beside it it needs.
 */
export function stageFixture(fixture: string, hosts: Record<string, string>, beside: string[] = []): { dir: string; source: string; cleanup(): void } {
  const tmp = tempDir('reqflow-import-');
  let text = readFileSync(join(IMPORT_FIXTURES, fixture), 'utf8');
  for (const [from, to] of Object.entries(hosts)) text = text.replaceAll(from, to);
  const source = tmp.write(basename(fixture), text);
  for (const file of beside) copyFileSync(join(IMPORT_FIXTURES, file), join(tmp.dir, basename(file)));
  return { dir: tmp.dir, source, cleanup: tmp.cleanup };
}

/** `reqflow import KIND …` in `cwd`. */
export function runImport(args: string[], cwd: string, input?: string): Promise<CliResult> {
  return runCli(['import', ...args], { cwd, ...(input !== undefined ? { input } : {}) });
}

/** `reqflow run FILE --env NAME …` the way a user runs an imported file. */
export function runImported(file: string, cwd: string, args: string[] = []): Promise<CliResult> {
  return runCli(['run', file, ...args], { cwd, env: { REQFLOW_STATE_DIR: join(cwd, '.state') } });
}
