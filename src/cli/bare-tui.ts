/**
 * `reqflow` alone: the UI over the current folder, without oclif (whose start-up was most of the
 * UI's). bin/run.cjs loads this from its own bundle, `dist/bundle/tui.cjs` (scripts/bundle-fast-path.js),
 * so the plain path's bundle carries nothing for it.
 */
import { loadUserPlugins } from '../pipeline/installed-plugins.js';
import { launchTui } from '../tui/launch.js';
import { processIo } from './run-file.js';

/** Returns the exit code; third-party plugins are found as `run` finds them. */
export async function launchBareTui(): Promise<number> {
  const io = processIo();
  return launchTui(undefined, {}, io, (warn) => loadUserPlugins(warn, io.env));
}
