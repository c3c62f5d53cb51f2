import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runCli, tempDir, type CliOptions, type CliResult } from './cli.js';

export const TSC = join(ROOT, 'node_modules', '.bin', 'tsc');
export const FIXTURE_PLUGINS = join(ROOT, 'test', 'fixtures', 'plugins');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds an example plugin package (`plugins/<name>`) with its own tsconfig, unless its dist is newer than its sources. */
export function buildPlugin(name: string): string {
  const dir = join(ROOT, 'plugins', name);
  let built = 0;
  try {
    built = newestMtime(join(dir, 'dist'));
  } catch {
    built = 0;
  }
  const sources = Math.max(newestMtime(join(dir, 'src')), statSync(join(dir, 'tsconfig.json')).mtimeMs, statSync(join(ROOT, 'dist', 'index.d.ts')).mtimeMs);
  if (built < sources) {
    const result = spawnSync(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`building plugins/${name} failed:\n${result.stdout}${result.stderr}`);
  }
  return dir;
}

/**
 * A reqflow "installation" of its own: oclif's data, cache and config folders, the session
 * folder and npm's cache all point into one temporary folder, so `reqflow plugins ...` never
 * touches the real home.
 */
export function pluginSandbox(prefix = 'reqflow-plugins-'): { dir: string; env: NodeJS.ProcessEnv; cli(args: string[], options?: CliOptions): Promise<CliResult>; write(name: string, text: string): string; cleanup(): void } {
  const tmp = tempDir(prefix);
  const env: NodeJS.ProcessEnv = {
    XDG_DATA_HOME: join(tmp.dir, 'data'),
    XDG_CACHE_HOME: join(tmp.dir, 'cache'),
    XDG_CONFIG_HOME: join(tmp.dir, 'config'),
    REQFLOW_STATE_DIR: join(tmp.dir, 'state'),
    npm_config_cache: join(tmp.dir, 'npm-cache'),
    npm_config_userconfig: join(tmp.dir, 'npmrc'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    // The packages installed here have no dependencies: prove that nothing needs the network.
    npm_config_offline: 'true',
  };
  return {
    dir: tmp.dir,
    env,
    cli: (args, options = {}) => runCli(args, { cwd: tmp.dir, ...options, env: { ...env, ...options.env } }),
    write: tmp.write,
    cleanup: tmp.cleanup,
  };
}

/** stderr lines that are warnings. */
export function warningLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('reqflow: warning: '));
}
