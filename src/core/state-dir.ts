import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * Where reqflow keeps what outlives a run (sessions, history): `$REQFLOW_STATE_DIR`, else
 * `$XDG_STATE_HOME/reqflow`, else `~/.local/state/reqflow`. Never inside a project.
 */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.REQFLOW_STATE_DIR) return env.REQFLOW_STATE_DIR;
  // The XDG spec: a relative path is invalid and ignored (it would put tokens in whatever folder the run is in).
  const xdg = env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(xdg, 'reqflow');
}
