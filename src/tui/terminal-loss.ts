import { closeSync, openSync } from 'node:fs';
import { isatty } from 'node:tty';

/** Which of the process's fds 0–2 are terminals, read while it still has one. */
export function terminalFds(): number[] {
  return [0, 1, 2].filter((fd) => isatty(fd));
}

/**
 * The UI got SIGHUP or its input ended. When the terminal is really gone (hung up: it no longer
 * answers as a terminal), Node, as it exits, sets each terminal it started with back to its
 * first settings and aborts — SIGABRT, a native stack trace, a core file — when that fails, as
 * it does on a hung-up terminal. Each such fd is put on /dev/null first (closed, then /dev/null
 * opened: the lowest free number is the one just closed), which Node then leaves alone, and the
 * input is destroyed: its read would keep the process alive. A SIGHUP sent with `kill` to a
 * terminal that is still there changes nothing: the terminal is restored as on any exit.
 */
export function releaseLostTerminal(fds: readonly number[], input: { destroy(): unknown }): void {
  const lost = fds.filter((fd) => !isatty(fd));
  if (lost.length === 0) return;
  input.destroy();
  for (const fd of lost) {
    try {
      closeSync(fd);
      const replacement = openSync('/dev/null', 'r+');
      if (replacement !== fd) closeSync(replacement);
    } catch {
      // already closed: nothing for Node to restore
    }
  }
}
