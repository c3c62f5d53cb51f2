/** Whether `reqflow plugins` has installed anything: asked before loading oclif, which is slow to start. */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { xdgDir } from './xdg-dir.js';

/**
 * oclif's data folder for reqflow, where `reqflow plugins install|link` records user plugins.
 * Mirrors oclif's own rule (`<BIN>_DATA_DIR`, else `$XDG_DATA_HOME/<bin>`, else `~/.local/share/<bin>`).
 */
function oclifDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.REQFLOW_DATA_DIR) return env.REQFLOW_DATA_DIR;
  return join(xdgDir(env.XDG_DATA_HOME, join(env.HOME || homedir(), '.local', 'share')), 'reqflow');
}

/**
 * True when `reqflow plugins` has installed or linked anything. The check is one small file
 * read, so a plain run with no third-party plugin never loads oclif at all.
 */
export function hasUserPlugins(env: NodeJS.ProcessEnv = process.env): boolean {
  try {
    const pkg = JSON.parse(readFileSync(join(oclifDataDir(env), 'package.json'), 'utf8')) as { oclif?: { plugins?: unknown[] } };
    return Array.isArray(pkg.oclif?.plugins) && pkg.oclif.plugins.length > 0;
  } catch {
    return false;
  }
}
