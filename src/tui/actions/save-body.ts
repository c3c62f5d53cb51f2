import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { createFileAtomic, writeOutputFile } from '../../core/atomic-write.js';
import { contentType } from '../../core/content-type.js';
import { fileErrorWords } from '../../core/errors/index.js';
import type { ResponseCapture } from '../response-capture.js';
import { LinePromptOverlay } from '../views/line-prompt.js';
import { PickerOverlay } from '../views/overlay.js';
import type { AppHost } from './host.js';

const WRITE_MODES = { mode: 0o644, dirMode: 0o755 } as const;

/** A file name from the request's name (letters, digits, dots, dashes) and the body's type. */
function suggestedName(name: string, capture: ResponseCapture): string {
  const base = name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^-+|(?<!-)-+$/g, '') || 'response';
  const type = capture.meta ? contentType(capture.meta) : '';
  const extension = /json/.test(type) ? 'json' : /xml/.test(type) ? 'xml' : /html/.test(type) ? 'html' : type.startsWith('text/') ? 'txt' : 'bin';
  return `${base}.${extension}`;
}

/** Why a save failed, in one line naming the file: a full disk, a read-only folder, … */
function saveFailure(path: string, error: unknown): string {
  const { code, message } = (error ?? {}) as NodeJS.ErrnoException;
  // Node's own words without the code and the path it names (a temp file's, for an atomic write).
  const words = String(message ?? error).replace(/^E[A-Z]+: /, '').replace(/, \w+ '.*$/s, '');
  return `not saved to ${path}: ${fileErrorWords(code) ?? words}`;
}

/** A file the user may not write (no write permission bit, or refused to this process): never replaced. */
function readOnly(target: string, mode: number): boolean {
  if ((mode & 0o222) === 0) return true; // root may write anything: the mode is the owner's wish
  try {
    accessSync(target, constants.W_OK);
    return false;
  } catch {
    return true;
  }
}

/**
 * `s`: the body's bytes exactly as received, into a file. Asks for the path (relative to the
 * folder the UI was opened in). A new file is created exclusively (core/atomic-write.ts
 * `createFileAtomic`): one another program makes meanwhile is never written over — the UI asks
 * instead, as for any file that is there. An existing file is replaced only when the user
 * confirms, atomically (a temp file renamed over it), and never a read-only one. A write that
 * fails (a full disk, a read-only folder) is one line naming the file; the file is left as it was.
 */
export function saveBody(app: AppHost, capture: ResponseCapture | undefined, name: string): void {
  const bytes = capture?.bytes;
  if (!capture || !bytes) return app.say('no body to save yet: send a request first', 'warn');
  const cwd = app.workspace.config.cwd;
  const question = `Save the ${bytes.length} bytes received to (relative to ${cwd}):`;
  app.open(
    new LinePromptOverlay(app, 'Save the body', { question, initial: suggestedName(name, capture), footer: 'Enter saves · Esc cancels' }, (answer) => {
      const path = answer?.trim();
      if (!path) return;
      const target = isAbsolute(path) ? path : resolve(cwd, path);
      const saved = (): void => app.say(`saved ${bytes.length} bytes to ${relative(cwd, target) || target}`, 'ok');
      const failed = (error: unknown): void => app.say(saveFailure(path, error), 'error');
      const replace = (): void => {
        let stat;
        try {
          stat = statSync(target, { throwIfNoEntry: false });
        } catch (error) {
          return failed(error); // a loop of links, a file where a folder should be
        }
        if (stat?.isDirectory()) return app.say(`${path} is a folder: give a file name`, 'error');
        if (stat?.isFile() && readOnly(target, stat.mode)) return app.say(`not saved: ${path} is read-only (the file was kept)`, 'error');
        app.open(
          new PickerOverlay(app, `${path} exists`, ['No, keep the file', 'Yes, replace it'], 0, (choice) => {
            if (choice === 1) app.background(writeOutputFile(target, bytes, WRITE_MODES).then(saved, failed));
            else app.say('not saved: the file was kept', 'warn');
          }),
        );
      };
      if (existsSync(target)) return replace();
      // Created, never renamed over: a file that appears meanwhile is kept, and asked about.
      app.background(createFileAtomic(target, bytes, WRITE_MODES).then((created) => (created ? saved() : replace()), failed));
    }),
  );
}
