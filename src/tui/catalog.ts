import { relative } from 'node:path';
import type { ReqflowError } from '../core/errors/index.js';
import type { RequestSpec } from '../core/model.js';
import type { Palette } from '../report/render/colors.js';
import type { PluginRegistry } from '../core/registry.js';
import { parseRequestFile } from '../pipeline/parse-file.js';
import { findRequestFiles, type SearchLimits } from '../pipeline/request-files.js';

/** Bounded, so a huge tree cannot stall the UI. */
const DISCOVERY_LIMITS: SearchLimits = { depth: 6, files: 400 };

/** One request file of the folder: its requests, or why it could not be read. */
export interface CatalogFile {
  /** Absolute path. */
  path: string;
  /** Path relative to the folder, as shown. */
  label: string;
  specs: RequestSpec[];
  error?: ReqflowError | Error;
}

export interface Catalog {
  root: string;
  files: CatalogFile[];
  /** More files than the discovery limit. */
  truncated: boolean;
}

/** Parses every request file under `root` with the same format plugins as `reqflow run`. */
export async function loadCatalog(root: string, registry: PluginRegistry): Promise<Catalog> {
  const { files, truncated } = await findRequestFiles(root, DISCOVERY_LIMITS);
  const parsed = await Promise.all(
    files.map(async (path): Promise<CatalogFile> => {
      const label = relative(root, path);
      try {
        return { path, label, specs: await parseRequestFile(path, registry) };
      } catch (error) {
        return { path, label, specs: [], error: error as ReqflowError | Error };
      }
    }),
  );
  return { root, files: parsed, truncated };
}

export type TreeRow = { kind: 'file'; file: CatalogFile; collapsed: boolean } | { kind: 'request'; file: CatalogFile; spec: RequestSpec };

/**
 * The rows of the request tree. A filter (case-insensitive, on the request name) shows only
 * matching requests and their files, expanded.
 */
export function treeRows(catalog: Catalog, options: { filter?: string; collapsed?: ReadonlySet<string> } = {}): TreeRow[] {
  const filter = options.filter?.trim().toLowerCase() ?? '';
  const rows: TreeRow[] = [];
  for (const file of catalog.files) {
    const specs = filter === '' ? file.specs : file.specs.filter((spec) => spec.name.toLowerCase().includes(filter));
    if (filter !== '' && specs.length === 0) continue;
    const collapsed = filter === '' && options.collapsed?.has(file.path) === true;
    rows.push({ kind: 'file', file, collapsed });
    if (!collapsed) for (const spec of specs) rows.push({ kind: 'request', file, spec });
  }
  return rows;
}

/** Where a row is in the tree, to keep the selection across a rebuild (filter, reload). */
export function rowKey(row: TreeRow): string {
  return row.kind === 'file' ? row.file.path : `${row.file.path}\u0000${row.spec.name}`;
}

/** One line of the tree: `▾ users.http`, `  GET    list users` (method coloured). */
export function rowLabel(row: TreeRow, colors: Palette): string {
  if (row.kind === 'file') {
    if (row.file.error) return `${colors.error('✗')} ${row.file.label}`;
    return `${row.collapsed ? '▸' : '▾'} ${row.file.label}`;
  }
  const method = row.spec.method.length > 6 ? row.spec.method.slice(0, 6) : row.spec.method;
  return `  ${colors.method(method)}${' '.repeat(7 - method.length)}${row.spec.name}`;
}
