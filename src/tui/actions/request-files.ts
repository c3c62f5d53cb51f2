import { constants, copyFileSync, existsSync, linkSync, mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { isInside } from '../../core/project.js';
import { isSearchedFolder } from '../../pipeline/request-files.js';
import { stateDir } from '../../core/state-dir.js';
import { LinePromptOverlay } from '../views/line-prompt.js';
import { PickerOverlay } from '../views/overlay.js';
import type { Action } from '../keymap.js';
import type { AppHost } from './host.js';

/** What managing request files needs of the app. */
export interface FilesHost extends AppHost {
  /** Reloads the request files and selects the row `select` (a file's path), else keeps the selection. */
  reload(profiles?: boolean, select?: string): Promise<void>;
  /** The file of the selected row (none for a folder). */
  selectedFile(): string | undefined;
}

const NEW_REQUEST = '### new request\nGET https://example.com/\nAccept: application/json\n';

/** A path typed by the user, inside the folder the UI shows; `.http` added when it names no request-file type. */
function targetPath(app: AppHost, typed: string, near: string): string | undefined {
  const root = app.workspace.catalog.root;
  const name = /\.(http|rest|ws|ya?ml|json)$/i.test(typed) ? typed : `${typed}.http`;
  const path = isAbsolute(name) ? name : resolve(near, name);
  if (!isInside(root, path)) {
    app.say(`${typed}: request files stay inside ${root}`, 'error');
    return undefined;
  }
  if (existsSync(path)) {
    app.say(`${relative(root, path)} exists: pick another name (nothing is overwritten)`, 'error');
    return undefined;
  }
  // The tree never lists a hidden file, nor one in a folder it skips: the file would vanish from it.
  const parts = relative(root, path).split(/[\\/]/);
  const unlisted = parts.find((part, index) => (index === parts.length - 1 ? part.startsWith('.') : !isSearchedFolder(part)));
  if (unlisted !== undefined) {
    app.say(`${typed}: the tree hides it (${unlisted.startsWith('.') ? 'a hidden name' : `${unlisted}/ is skipped`}): pick another name`, 'error');
    return undefined;
  }
  return path;
}

/** Runs a file operation; a failure (a name taken meanwhile, no permission) is one line in the status bar. */
function attempt(app: AppHost, what: string, act: () => void): void {
  try {
    act();
  } catch (error) {
    app.say(`could not ${what}: ${(error as Error).message}`, 'error');
  }
}

/** Asks for a file name, then acts on the path (which does not exist yet). */
function askPath(app: AppHost, what: string, question: string, initial: string, near: string, act: (path: string) => void): void {
  app.open(
    new LinePromptOverlay(app, what, { question, initial, footer: 'Enter · Esc cancels' }, (typed) => {
      const trimmed = typed?.trim();
      if (!trimmed) return;
      const path = targetPath(app, trimmed, near);
      if (path) attempt(app, what.toLowerCase(), () => act(path));
    }),
  );
}

/** `a`: a new request file (a template request in it) beside the selected one, opened in the tree. */
function newRequestFile(app: FilesHost, selected: string | undefined): void {
  const near = selected ? dirname(selected) : app.workspace.catalog.root;
  askPath(app, 'Create the file', `File name (in ${relative(app.workspace.catalog.root, near) || '.'}):`, 'requests.http', near, (path) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, NEW_REQUEST, { flag: 'wx' }); // wx: never replaces a file
    app.background(app.reload(false, path).then(() => app.say(`created ${relative(app.workspace.catalog.root, path)} (E edits it)`, 'ok')));
  });
}

/** `D`: a copy of the selected file under a new name. */
function duplicateRequestFile(app: FilesHost, selected: string | undefined): void {
  if (!selected) return app.say('select a request file to duplicate', 'warn');
  const initial = `${basename(selected, extname(selected))}-copy${extname(selected)}`;
  askPath(app, 'Duplicate the file', `Copy ${basename(selected)} to:`, initial, dirname(selected), (path) => {
    mkdirSync(dirname(path), { recursive: true });
    copyFileSync(selected, path, constants.COPYFILE_EXCL);
    app.background(app.reload(false, path).then(() => app.say(`copied to ${relative(app.workspace.catalog.root, path)}`, 'ok')));
  });
}

/** `R`: renames the selected file; an existing file of the new name is never replaced. */
function renameRequestFile(app: FilesHost, selected: string | undefined): void {
  if (!selected) return app.say('select a request file to rename', 'warn');
  askPath(app, 'Rename the file', `Rename ${basename(selected)} to:`, basename(selected), dirname(selected), (path) => {
    mkdirSync(dirname(path), { recursive: true });
    linkSync(selected, path); // fails if the name is taken, unlike rename
    unlinkSync(selected);
    app.background(app.reload(false, path).then(() => app.say(`renamed to ${relative(app.workspace.catalog.root, path)}`, 'ok')));
  });
}

/**
 * `Delete`: after a confirmation, the selected file moves to reqflow's trash folder (in the
 * state folder), never deleted outright: the status bar says where it went.
 */
function deleteRequestFile(app: FilesHost, selected: string | undefined): void {
  if (!selected) return app.say('select a request file to delete', 'warn');
  const shown = relative(app.workspace.catalog.root, selected);
  app.open(
    new PickerOverlay(app, `Delete ${shown}?`, ['No, keep it', `Yes, move ${basename(selected)} to the trash`], 0, (choice) => {
      if (choice !== 1) return app.say('kept', 'info');
      attempt(app, `move ${shown} to the trash`, () => {
        const trash = join(stateDir(app.workspace.config.env), 'trash');
        mkdirSync(trash, { recursive: true, mode: 0o700 });
        const target = join(trash, `${new Date().toISOString().replace(/[:.]/g, '-')}-${basename(selected)}`);
        try {
          renameSync(selected, target);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
          copyFileSync(selected, target, constants.COPYFILE_EXCL); // another file system: copied, then removed
          unlinkSync(selected);
        }
        app.background(app.reload().then(() => app.say(`moved ${shown} to ${target}`, 'ok')));
      });
    }),
  );
}

/** The actions on request files (the app's command table includes them). */
export const FILE_COMMANDS: Partial<Record<Action, (app: FilesHost) => void>> = {
  'new-file': (app) => newRequestFile(app, app.selectedFile()),
  'duplicate-file': (app) => duplicateRequestFile(app, app.selectedFile()),
  'rename-file': (app) => renameRequestFile(app, app.selectedFile()),
  'delete-file': (app) => deleteRequestFile(app, app.selectedFile()),
};
