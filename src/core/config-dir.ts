import { homedir } from 'node:os';
import { join } from 'node:path';
import { xdgDir } from './xdg-dir.js';

/**
 * Where the user's own settings for reqflow live (the TUI's `keybinds.json`):
 * `$REQFLOW_CONFIG_DIR`, else `$XDG_CONFIG_HOME/reqflow`, else `~/.config/reqflow`, as oclif's
 * config folder rule. Never inside a project.
 */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.REQFLOW_CONFIG_DIR) return env.REQFLOW_CONFIG_DIR;
  return join(xdgDir(env.XDG_CONFIG_HOME, join(env.HOME || homedir(), '.config')), 'reqflow');
}
