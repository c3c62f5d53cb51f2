import type { Screen } from './blessed.js';
import { setBracketedPaste } from './terminal-input.js';

/** The parts of neo-blessed's screen a suspend takes apart and puts back. */
interface SuspendableScreen extends Screen {
  program: Screen['program'] & { input: NodeJS.ReadableStream & { setRawMode?(mode: boolean): unknown }; enableMouse(): void };
  enter(): void;
  leave(): void;
  alloc(): void;
}

/**
 * Ctrl-Z: what a terminal's own Ctrl-Z does to a program that has not taken the keyboard. The
 * terminal is given back as on exit (bracketed paste and mouse off, keypad mode and the normal
 * screen back, the cursor shown, the keyboard cooked), the process group is stopped with
 * SIGTSTP — the shell's `fg` continues it —, then the UI takes the terminal again and draws it
 * whole. The stop happens inside `kill` (a signal to the calling process is delivered before the
 * call returns), so the terminal is taken back only once the process runs again. Where no shell
 * manages jobs (the UI started by tmux, ssh or a terminal window directly: an orphaned process
 * group) the kernel discards the stop: the UI just draws again and goes on.
 */
export function suspendToShell(screen: Screen, stop?: () => void): void {
  const terminal = screen as SuspendableScreen;
  // Only the process's own terminal stops the process: a UI on other streams (tests) just redraws.
  const halt = stop ?? (terminal.program.input === process.stdin ? () => process.kill(0, 'SIGTSTP') : () => undefined);
  setBracketedPaste(screen, false);
  terminal.leave(); // keypad, cursor, mouse, normal screen: written at once
  terminal.program.input.setRawMode?.(false);
  try {
    halt();
  } finally {
    terminal.program.input.setRawMode?.(true);
    terminal.enter();
    terminal.program.enableMouse();
    setBracketedPaste(screen, true);
    terminal.alloc(); // everything drawn again: the shell wrote over the screen meanwhile
    screen.render();
  }
}
