import type { AppHooks } from './actions/host.js';
import { TuiApp } from './app.js';
import { loadBlessed, type Screen } from './blessed.js';
import { loadOAuthLogin } from './oauth-login.js';
import { loadKeybinds } from './keybinds.js';
import { colorWanted } from '../report/render/colors.js';
import { dropColours } from './no-color.js';
import { routeTerminalInput, useBracketedPaste } from './terminal-input.js';
import { Workspace, type WorkspaceOptions } from './workspace.js';

/** The terminal the UI draws on: the process's own, or fake streams in tests. */
export interface TuiTerminal {
  input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };
  output: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  /** terminfo name; `$TERM` by default. */
  terminal?: string;
  /** Milliseconds to wait before redrawing after a resize (neo-blessed's default: 300). */
  resizeTimeout?: number;
  /** Called after SIGHUP or the end of input, before the UI lets go of the terminal: the process's own is released if it is gone (terminal-loss.ts). */
  release?: () => void;
}

/** Exit codes of the ways the UI ends other than the user quitting (0): a signal's is 128 + its number, as a shell reports it. */
const EXIT = { hangup: 129, interrupted: 130, terminated: 143, failed: 70 } as const;

export interface OpenTui {
  app: TuiApp;
  screen: Screen;
  workspace: Workspace;
  /** Restores the terminal (idempotent). */
  close(): void;
}

/** Loads the workspace, then takes over the terminal. Start-up errors are thrown before the screen opens. */
export async function openTui(options: WorkspaceOptions, terminal: TuiTerminal, hooks: AppHooks = { oauthLogin: loadOAuthLogin }): Promise<OpenTui> {
  const bindings = await loadKeybinds(options.env); // a bad file is a usage error before the screen opens
  const workspace = await Workspace.open(options);
  const blessed = await loadBlessed();
  const screen = blessed.screen({
    input: terminal.input,
    output: terminal.output,
    ...(terminal.terminal ? { terminal: terminal.terminal } : {}),
    fullUnicode: true,
    // Box-drawing characters and bullets: every terminal in use speaks UTF-8, even when LANG says C.
    forceUnicode: true,
    smartCSR: true,
    warnings: false,
    title: 'reqflow',
    resizeTimeout: terminal.resizeTimeout ?? 100,
  });
  if (!colorWanted(true, options.env, screen.tput.colors)) dropColours(screen);
  let closed = false;
  let stopInput = (): void => {};
  const close = (): void => {
    if (closed) return;
    closed = true;
    stopInput();
    workspace.close();
    screen.destroy(); // bracketed paste off with the rest (useBracketedPaste)
  };
  try {
    const app = new TuiApp(blessed, screen, workspace, hooks, bindings);
    stopInput = routeTerminalInput(terminal.input, app);
    useBracketedPaste(screen);
    return { app, screen, workspace, close };
  } catch (error) {
    close();
    throw error;
  }
}

/**
 * `reqflow tui`: runs the UI until the user quits (0), SIGINT (130), SIGTERM (143) or the
 * terminal goes away — SIGHUP, or its input ends — (129). The terminal is restored on every
 * path; an exception that escapes the UI's own handlers ends it too, restored, and is thrown
 * for the caller to print as one line (exit 70).
 */
export async function runTui(options: WorkspaceOptions, terminal: TuiTerminal): Promise<number> {
  const tui = await openTui(options, terminal);
  const end: { code: number; lost: boolean; error?: unknown } = { code: 0, lost: false };
  const stop = (code: number): void => {
    if (end.code === 0) end.code = code;
    void tui.app.quit();
  };
  const onTerm = (): void => stop(EXIT.terminated);
  const onInterrupt = (): void => stop(EXIT.interrupted); // `kill -INT`: Ctrl-C itself is a key (quit, 0)
  const onLost = (): void => {
    end.lost = true;
    stop(EXIT.hangup);
  };
  // neo-blessed's own handler (restore, print the stack, exit 1) stands aside while another listens.
  const onFailure = (error: unknown): void => {
    if (!end.lost && end.error === undefined) end.error = error; // a dead terminal's write errors are no news
    stop(EXIT.failed);
  };
  const listeners: Array<[NodeJS.EventEmitter, string, (value: unknown) => void]> = [
    [process, 'SIGTERM', onTerm],
    [process, 'SIGINT', onInterrupt],
    [process, 'SIGHUP', onLost],
    [terminal.input, 'end', onLost],
    [terminal.input, 'error', onLost],
    [process, 'uncaughtException', onFailure],
    [process, 'unhandledRejection', onFailure],
  ];
  for (const [emitter, event, listener] of listeners) emitter.on(event, listener);
  // Writing to a terminal that is gone fails (EIO) until the process ends, after the UI too: never news.
  terminal.output.on('error', onLost);
  try {
    await tui.app.run();
  } finally {
    if (end.lost) terminal.release?.();
    try {
      tui.close();
    } catch (error) {
      if (!end.lost) throw error; // restoring a terminal that is gone fails: nothing is left to restore
    }
    for (const [emitter, event, listener] of listeners) emitter.removeListener(event, listener);
    // A lost terminal hangs up more than once (the terminal emulator, then the kernel for the
    // whole process group): one arriving while the process ends would kill it by the signal
    // instead of the exit 129 decided here.
    if (end.lost && process.listenerCount('SIGHUP') === 0) process.on('SIGHUP', ignoreSignal);
  }
  if (end.error !== undefined) throw end.error;
  return end.code;
}

/** A signal the process has already answered. */
function ignoreSignal(): void {}
