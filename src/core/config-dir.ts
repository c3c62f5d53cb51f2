import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * Where the user's own settings for reqflow live (the TUI's `keybinds.json`):
 * `$REQFLOW_CONFIG_DIR`, else `$XDG_CONFIG_HOME/reqflow`, else `~/.config/reqflow`, as oclif's
 * config folder rule. Never inside a project.
 */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.REQFLOW_CONFIG_DIR) return env.REQFLOW_CONFIG_DIR;
  // The XDG spec: a relative path is invalid and ignored (a project's folder could otherwise hold the trust store).
  const xdg = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(env.HOME || homedir(), '.config');
  return join(xdg, 'reqflow');
}
