import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { writeOutputFile } from '../../core/atomic-write.js';
import { contentType } from '../../core/content-type.js';
import type { ResponseCapture } from '../response-capture.js';
import { LinePromptOverlay } from '../views/line-prompt.js';
import { PickerOverlay } from '../views/overlay.js';
import type { AppHost } from './host.js';

/** A file name from the request's name (letters, digits, dots, dashes) and the body's type. */
function suggestedName(name: string, capture: ResponseCapture): string {
  const base = name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^-+|(?<!-)-+$/g, '') || 'response';
  const type = capture.meta ? contentType(capture.meta) : '';
  const extension = /json/.test(type) ? 'json' : /xml/.test(type) ? 'xml' : /html/.test(type) ? 'html' : type.startsWith('text/') ? 'txt' : 'bin';
  return `${base}.${extension}`;
}

/**
 * `s`: the body's bytes exactly as received, into a file. Asks for the path (relative to the
 * folder the UI was opened in); an existing file is replaced only when the user confirms, and
 * atomically (a temp file renamed over it).
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
      const write = (): void => {
        app.background(
          writeOutputFile(target, bytes, { mode: 0o644, dirMode: 0o755 }).then(() => app.say(`saved ${bytes.length} bytes to ${relative(cwd, target) || target}`, 'ok')),
        );
      };
      if (!existsSync(target)) return write();
      if (statSync(target).isDirectory()) return app.say(`${path} is a folder: give a file name`, 'error');
      app.open(
        new PickerOverlay(app, `${path} exists`, ['No, keep the file', 'Yes, replace it'], 0, (choice) => {
          if (choice === 1) write();
          else app.say('not saved: the file was kept', 'warn');
        }),
      );
    }),
  );
}
