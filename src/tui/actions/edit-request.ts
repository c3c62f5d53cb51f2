import type { ChildProcess } from 'node:child_process';
import type { RequestSpec } from '../../core/model.js';
import { editorCommand } from '../editor-command.js';
import { setBracketedPaste } from '../terminal-input.js';
import type { AppHost } from './host.js';

/** How long an editor told to stop (the UI is quitting) has before it is killed. */
const EDITOR_GRACE_MS = 3_000;

/** What opening the editor needs of the app. */
export interface EditHost extends AppHost {
  /** Reloads the request files, keeping the selection. */
  reload(profiles?: boolean, select?: string): Promise<void>;
  /** The file of the selected row (none for a folder). */
  selectedFile(): string | undefined;
  /** The editor running on the terminal, if any (quitting stops it first). */
  editor: ChildProcess | undefined;
}

/**
 * `E`: the selected request in `$VISUAL`/`$EDITOR` (else vi) at its line. The screen is handed
 * to the editor (normal buffer, cooked keyboard) and taken back when it exits; the request files
 * are then reloaded, the selection kept.
 */
export function editRequest(app: EditHost, spec: RequestSpec | undefined, file = app.selectedFile()): void {
  if (!file) return app.say('select a request or a file to edit', 'warn');
  const { command, args } = editorCommand(app.workspace.config.env, file, spec?.source.line ?? 1);
  setBracketedPaste(app.screen, false); // the editor's own choice while it has the terminal
  const child = app.screen.exec(command, args, { env: app.workspace.config.env, cwd: app.workspace.config.dir }, (error, ok) => {
    if (!app.screen.destroyed) setBracketedPaste(app.screen, true);
    if (app.editor === child) app.editor = undefined;
    if (error) return app.say(`could not start the editor "${command}": ${error.message} (set $VISUAL or $EDITOR)`, 'error');
    app.background(
      app.reload().then(() => {
        if (!ok) app.say(`the editor "${command}" exited with an error; request files reloaded`, 'warn');
        else app.say('request files reloaded', 'ok');
      }),
    );
  });
  app.editor = child;
}

/**
 * The UI is quitting (SIGTERM, SIGHUP) while the editor has the terminal: the editor is told
 * to stop (SIGTERM: vi and the like keep a swap file), killed after a grace period, and waited
 * for — neo-blessed takes the terminal back when it exits, and only then can the UI restore it.
 */
export function stopEditor(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), EDITOR_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.once('error', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
