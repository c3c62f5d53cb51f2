import { closeSync, openSync } from 'node:fs';
import { isatty } from 'node:tty';

/** Which of the process's fds 0–2 are terminals, read while it still has one (a hung-up terminal may no longer say so). */
export function terminalFds(): number[] {
  return [0, 1, 2].filter((fd) => isatty(fd));
}

/**
 * The terminal was hung up (its window closed: SIGHUP, or end of input). As it exits, Node sets
 * each terminal it started with back to its first settings and aborts — SIGABRT, a native stack
 * trace, a core file — when that fails, as it does on a hung-up terminal. Each of `fds` is put
 * on /dev/null first (closed, then /dev/null opened: the lowest free number is the one just
 * closed), which Node then leaves alone; what is still written goes nowhere.
 */
export function releaseTerminal(fds: readonly number[]): void {
  for (const fd of fds) {
    try {
      closeSync(fd);
      const replacement = openSync('/dev/null', 'r+');
      if (replacement !== fd) closeSync(replacement);
    } catch {
      // already closed: nothing for Node to restore
    }
  }
}
