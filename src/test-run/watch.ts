/**
 * `reqflow test --watch`: runs again when a request file, a script beside it or an environment
 * file of the tools changes, until Ctrl-C. Node's `fs.watch` on the files' folders (no
 * polling); changes that come while a run is going are gathered into one next run.
 */
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Besides the request files: what a change of makes another run worth it. */
const ALSO = /^(http-client(\.private)?\.env\.json|\.env(\..+)?|.+\.env|.+\.(js|json|ya?ml|http|rest))$/;

/** Calls `run` after each change (debounced) until `signal` aborts; resolves then. */
export interface WatchHooks {
  run(changed: string): Promise<void>;
  /** Called once the watches are in place (saying so before would race a quick editor). */
  ready(): void;
  warn(message: string): void;
}

export function watchFiles(files: readonly string[], signal: AbortSignal, hooks: WatchHooks, debounceMs = 150): Promise<void> {
  const { run, warn } = hooks;
  const wanted = new Set(files);
  const watchers: FSWatcher[] = [];
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> | undefined;
    let pending: string | undefined;
    const start = (changed: string): void => {
      if (running) {
        pending = changed;
        return;
      }
      running = run(changed).finally(() => {
        running = undefined;
        const next = pending;
        pending = undefined;
        if (next !== undefined && !signal.aborted) start(next);
      });
    };
    const onEvent = (folder: string, name: string | null): void => {
      if (!name) return;
      const path = join(folder, name);
      if (!wanted.has(path) && !ALSO.test(basename(name))) return;
      clearTimeout(timer);
      timer = setTimeout(() => start(path), debounceMs);
    };
    for (const folder of new Set(files.map((file) => dirname(file)))) {
      try {
        const watcher = watch(folder, (_event, name) => onEvent(folder, name));
        watcher.on('error', (error) => warn(`stopped watching ${folder}: ${error.message}`));
        watchers.push(watcher);
      } catch (error) {
        warn(`cannot watch ${folder}: ${(error as Error).message}`);
      }
    }
    hooks.ready();
    const stop = (): void => {
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
      void (running ?? Promise.resolve()).then(() => resolve());
    };
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
}
