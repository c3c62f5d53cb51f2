import type { RequestSpec } from '../../core/model.js';
import { editorCommand } from '../editor-command.js';
import type { AppHost } from './host.js';

/** What opening the editor needs of the app. */
export interface EditHost extends AppHost {
  /** Reloads the request files, keeping the selection. */
  reload(profiles?: boolean, select?: string): Promise<void>;
  /** The file of the selected row (none for a folder). */
  selectedFile(): string | undefined;
}

/**
 * `E`: the selected request in `$VISUAL`/`$EDITOR` (else vi) at its line. The screen is handed
 * to the editor (normal buffer, cooked keyboard) and taken back when it exits; the request files
 * are then reloaded, the selection kept.
 */
export function editRequest(app: EditHost, spec: RequestSpec | undefined, file = app.selectedFile()): void {
  if (!file) return app.say('select a request or a file to edit', 'warn');
  const { command, args } = editorCommand(app.workspace.config.env, file, spec?.source.line ?? 1);
  app.screen.exec(command, args, { env: app.workspace.config.env, cwd: app.workspace.config.dir }, (error, ok) => {
    if (error) return app.say(`could not start the editor "${command}": ${error.message} (set $VISUAL or $EDITOR)`, 'error');
    app.background(
      app.reload().then(() => {
        if (!ok) app.say(`the editor "${command}" exited with an error; request files reloaded`, 'warn');
        else app.say('request files reloaded', 'ok');
      }),
    );
  });
}
