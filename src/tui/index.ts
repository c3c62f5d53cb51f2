import type { AppHooks } from './actions/host.js';
import { TuiApp } from './app.js';
import { loadBlessed, type Screen } from './blessed.js';
import { loadOAuthLogin } from './oauth-login.js';
import { loadKeybinds } from './keybinds.js';
import { colorWanted } from '../report/render/colors.js';
import { dropColours } from './no-color.js';
import { Workspace, type WorkspaceOptions } from './workspace.js';

/** The terminal the UI draws on: the process's own, or fake streams in tests. */
export interface TuiTerminal {
  input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };
  output: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  /** terminfo name; `$TERM` by default. */
  terminal?: string;
  /** Milliseconds to wait before redrawing after a resize (neo-blessed's default: 300). */
  resizeTimeout?: number;
}

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
  if (!colorWanted(true, options.env)) dropColours(screen);
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    workspace.close();
    screen.destroy();
  };
  try {
    const app = new TuiApp(blessed, screen, workspace, hooks, bindings);
    return { app, screen, workspace, close };
  } catch (error) {
    close();
    throw error;
  }
}

/** `reqflow tui`: runs the UI until the user quits; the terminal is restored on every path. */
export async function runTui(options: WorkspaceOptions, terminal: TuiTerminal): Promise<number> {
  const tui = await openTui(options, terminal);
  const onSignal = (): void => void tui.app.quit();
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);
  try {
    await tui.app.run();
    return 0;
  } finally {
    process.removeListener('SIGTERM', onSignal);
    process.removeListener('SIGHUP', onSignal);
    tui.close();
  }
}
