/** Calls back when a file changes, once per burst of edits. */
import { watch } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

/**
 * Watches the file's folder, not the file: editors save by writing a new file and renaming it
 * over the old one, which ends a watch on the old file. Events within `debounceMs` of each
 * other (an editor's write, chmod and rename) make one call. Returns the stop function.
 */
export function watchFile(file: string, onChange: () => void, debounceMs = 150): () => void {
  const name = basename(file);
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(dirname(resolve(file)), (_event, changed) => {
    if (changed !== null && changed.toString() !== name) return;
    clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
  });
  watcher.on('error', () => undefined); // the folder went away: keep serving what was loaded
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
