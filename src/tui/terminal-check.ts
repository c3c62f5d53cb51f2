import { closeSync, openSync } from 'node:fs';
import { UsageError } from '../core/errors/index.js';

const HINT = 'to send requests from a script or a pipe, use: reqflow run FILE';

/** Whether the process has a controlling terminal: without one (setsid, a daemon) closing the window sends no SIGHUP, and Ctrl-Z or job control have nothing to act on. */
function hasControllingTerminal(): boolean {
  if (process.platform === 'win32') return true;
  try {
    closeSync(openSync('/dev/tty', 'r'));
    return true;
  } catch (error) {
    // ENXIO: no controlling terminal. Anything else (no /dev/tty node in a bare container) is not ours to judge.
    return (error as NodeJS.ErrnoException).code !== 'ENXIO';
  }
}

/**
 * Refuses, before the screen opens, a terminal the UI cannot draw on or be stopped from: stdin
 * or stdout not a terminal, `TERM=dumb` (no cursor movement: every frame would scroll), or no
 * controlling terminal. A usage error: one line, exit 2.
 */
export function checkTerminal(io: { stdin: { isTTY?: boolean }; stdout: { isTTY?: boolean }; env: NodeJS.ProcessEnv }, controlling = hasControllingTerminal): void {
  if (io.stdin.isTTY !== true || io.stdout.isTTY !== true) {
    throw new UsageError('the terminal UI needs a terminal (stdin and stdout are not both terminals)', { hint: HINT });
  }
  if (io.env.TERM === 'dumb') {
    throw new UsageError('the terminal UI cannot draw on TERM=dumb (a terminal that cannot move the cursor)', { hint: `set TERM to your terminal's type (xterm-256color, screen, …); ${HINT}` });
  }
  if (!controlling()) {
    throw new UsageError('the terminal UI needs a controlling terminal (started with setsid, or detached from its terminal)', { hint: HINT });
  }
}
