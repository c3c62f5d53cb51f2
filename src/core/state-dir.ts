import { homedir } from 'node:os';
import { join } from 'node:path';
import { xdgDir } from './xdg-dir.js';

/**
 * Where reqflow keeps what outlives a run (sessions, history): `$REQFLOW_STATE_DIR`, else
 * `$XDG_STATE_HOME/reqflow`, else `~/.local/state/reqflow`. Never inside a project.
 */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.REQFLOW_STATE_DIR) return env.REQFLOW_STATE_DIR;
  return join(xdgDir(env.XDG_STATE_HOME, join(homedir(), '.local', 'state')), 'reqflow');
}
