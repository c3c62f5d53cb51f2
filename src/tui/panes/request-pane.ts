import { rowKey, type TreeRow } from '../catalog.js';
import type { Exchange } from '../exchange.js';
import { colors, errorText, fit, requestText, shown } from '../views/format.js';
import { asReqflowError } from '../workspace.js';
import { sameAsWritten } from '../request-moves.js';

export interface RequestPaneState {
  row: TreeRow | undefined;
  filtered: boolean;
  root: string;
  /** The selected request's last send. */
  exchange: Exchange | undefined;
  /** The profile and environment now: a send made with others is not shown as sent. */
  context: string;
  /** The substitution preview computed for a row, by row key. */
  preview: { key: string; text: string } | undefined;
}

/**
 * The request pane: a file's summary, the request as sent (after a send with the current
 * profile and environment, while the file still says the same), else the request with its variables resolved (`previewKey`: the preview to compute for this row).
 */
export function requestPaneView(state: RequestPaneState): { label: string; content: string; previewKey?: string } {
  const { row } = state;
  if (!row) {
    const why = state.filtered ? 'No request matches the filter: names, file paths, URLs and methods are searched (Esc clears it).' : `No request files (.http, .rest, .ws, .yaml, .json) under ${state.root}.\nPress r after adding some.`;
    return { label: ' Request ', content: colors.dim(why) };
  }
  if (row.kind === 'folder') return { label: ' Request ', content: `${shown(row.label)}/\n${colors.dim(`a folder · Enter ${row.collapsed ? 'unfolds' : 'folds'} it`)}` };
  if (row.kind === 'file') {
    const { file } = row;
    const content = file.error ? errorText(asReqflowError(file.error), (t) => t) : `${shown(file.label)}\n${colors.dim(`${file.specs.length} request${file.specs.length === 1 ? '' : 's'} · Enter folds or unfolds`)}`;
    return { label: ' Request ', content };
  }
  const label = ` Request · ${fit(shown(row.spec.name), 30)} `;
  const { exchange } = state;
  // As sent while the profile, the environment and the request's own text are what it was sent with.
  if (exchange?.sent && exchange.context === state.context && sameAsWritten(exchange.spec, row.spec)) return { label, content: requestText(exchange.sent, true) };
  const key = rowKey(row);
  if (state.preview?.key === key) return { label, content: state.preview.text };
  return { label, content: `${colors.method(shown(row.spec.method))} ${shown(row.spec.url)}`, previewKey: key };
}
