import { rowLabel } from '../catalog.js';
import type { RequestTree } from '../request-tree.js';
import { colors } from '../views/format.js';

/** The request tree pane: its title (with the filter), its rows, the row selected. */
export function treePaneView(tree: RequestTree): { label: string; items: string[]; selected: number } {
  const filter = tree.filter.value;
  const labels = tree.rows.map((row) => rowLabel(row, colors));
  return {
    label: ` Requests${filter !== '' ? ` /${filter}` : ''} `,
    items: labels.length > 0 ? labels : [colors.dim(filter !== '' ? 'no request matches' : 'no request files here')],
    selected: Math.min(tree.selected, Math.max(0, labels.length - 1)),
  };
}
