import type { RequestSpec } from '../core/model.js';
import { dirname } from 'node:path';
import { rowKey, treeRows, type Catalog, type TreeRow } from './catalog.js';
import { LineEditor } from './line-editor.js';

/**
 * The request tree as data: its rows (files and their requests, filtered by name, files folded
 * or not) and the selection, which stays on the same row when the rows change.
 */
export class RequestTree {
  rows: TreeRow[] = [];
  selected = 0;
  /** The `/` filter line. */
  readonly filter = new LineEditor();
  private readonly collapsed = new Set<string>();

  get selectedRow(): TreeRow | undefined {
    return this.rows[this.selected];
  }

  /** The key of the selected row (file path, or file and request name). */
  currentKey(): string | undefined {
    const row = this.selectedRow;
    return row ? rowKey(row) : undefined;
  }

  /** The folder of the selected row (a folder, or its file's folder). */
  selectedFolder(): string | undefined {
    const row = this.selectedRow;
    return row === undefined ? undefined : row.kind === 'folder' ? row.path : dirname(row.file.path);
  }

  /** The selected request (none on a file or folder row). */
  selectedSpec(): RequestSpec | undefined {
    const row = this.selectedRow;
    return row?.kind === 'request' ? row.spec : undefined;
  }

  /** The file of the selected row (none on a folder row). */
  selectedFile(): string | undefined {
    const row = this.selectedRow;
    return row && row.kind !== 'folder' ? row.file.path : undefined;
  }

  /** Moves the selection by `delta` rows (±Infinity: last, first). */
  move(delta: number): void {
    const last = Math.max(0, this.rows.length - 1);
    this.selected = Math.max(0, Math.min(last, delta === Infinity ? last : delta === -Infinity ? 0 : this.selected + delta));
  }

  /** Folds or unfolds a file's requests. */
  toggleFold(path: string): void {
    if (this.collapsed.has(path)) this.collapsed.delete(path);
    else this.collapsed.add(path);
  }

  /** Rebuilds the rows (filter, folding, reload), keeping the selection on the same row when it is still there. */
  rebuild(catalog: Catalog, keepKey?: string): void {
    this.rows = treeRows(catalog, { filter: this.filter.value, collapsed: this.collapsed });
    const at = keepKey === undefined ? -1 : this.rows.findIndex((row) => rowKey(row) === keepKey);
    if (at >= 0) this.selected = at;
    else {
      // Prefer the first request over its file row: Enter then sends at once.
      const firstRequest = this.rows.findIndex((row) => row.kind === 'request');
      this.selected = this.filter.value !== '' && firstRequest >= 0 ? firstRequest : Math.min(this.selected, Math.max(0, this.rows.length - 1));
    }
  }
}
