import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, extname } from 'node:path';
import type { Catalog } from './catalog.js';

/** Changes closer together than this are one reload (an editor writes a file in several steps). */
const DEBOUNCE_MS = 150;

/** Extensions of request files (`src/pipeline/request-files.ts`): a change to another file (`.ndjson`, `.swp`, `~`) reloads nothing. */
const REQUEST_EXTENSIONS = new Set(['.http', '.rest', '.ws', '.json', '.yaml', '.yml']);

/** Whether a changed name may change the catalog: a request file, or a name without extension (a folder). Hidden names never do. */
function mayMatter(name: string): boolean {
  const base = basename(name);
  if (base.startsWith('.')) return false;
  const extension = extname(base).toLowerCase();
  return extension === '' || REQUEST_EXTENSIONS.has(extension);
}

/**
 * Watches the folder the UI shows and every folder holding one of its request files (not their
 * whole trees: `node_modules` and the like are never watched), and calls `onChange` once a
 * burst of changes is over. A folder that cannot be watched is skipped: `r` still reloads.
 */
export class CatalogWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private timer?: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly onChange: () => void) {}

  /** Watches the folders of this catalog (called after each load). */
  follow(catalog: Catalog): void {
    if (this.closed) return;
    const folders = new Set([catalog.root, ...catalog.files.map((file) => dirname(file.path))]);
    for (const [folder, watcher] of this.watchers) {
      if (folders.has(folder)) continue;
      watcher.close();
      this.watchers.delete(folder);
    }
    for (const folder of folders) {
      if (this.watchers.has(folder)) continue;
      try {
        const watcher = watch(folder, { persistent: false }, (_event, name) => {
          if (name !== null && !mayMatter(name)) return;
          this.schedule();
        });
        watcher.on('error', () => {
          watcher.close();
          this.watchers.delete(folder);
        });
        this.watchers.set(folder, watcher);
      } catch {
        // gone, or no permission: not watched
      }
    }
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      delete this.timer;
      if (!this.closed) this.onChange();
    }, DEBOUNCE_MS);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }
}
