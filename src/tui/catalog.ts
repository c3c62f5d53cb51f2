import { basename, join, relative, sep } from 'node:path';
import type { ReqflowError } from '../core/errors/index.js';
import type { RequestSpec } from '../core/model.js';
import type { Palette } from '../report/render/colors.js';
import { stampOf, type FileStamp } from './file-stamp.js';
import { shown } from './views/format.js';
import type { PluginRegistry } from '../core/registry.js';
import { parseRequestFile } from '../pipeline/parse-file.js';
import { findRequestFiles, type SearchLimits } from '../pipeline/request-files.js';

/** Bounded, so a huge tree cannot stall the UI. */
const DISCOVERY_LIMITS: SearchLimits = { depth: 6, files: 400, dataFiles: 1_000 };

/** One request file of the folder: its requests, or why it could not be read. */
export interface CatalogFile {
  /** Absolute path. */
  path: string;
  /** Path relative to the folder, as shown. */
  label: string;
  specs: RequestSpec[];
  error?: ReqflowError | Error;
  /** The file as it was when read (file-stamp.ts): a send checks it is still that file. */
  stamp?: FileStamp;
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
      const stamp = stampOf(path);
      const stamped = stamp ? { stamp } : {};
      try {
        return { path, label, specs: await parseRequestFile(path, registry), ...stamped };
      } catch (error) {
        return { path, label, specs: [], error: error as ReqflowError | Error, ...stamped };
      }
    }),
  );
  return { root, files: parsed, truncated };
}

export type TreeRow =
  | { kind: 'folder'; path: string; label: string; depth: number; collapsed: boolean }
  | { kind: 'file'; file: CatalogFile; depth: number; collapsed: boolean }
  | { kind: 'request'; file: CatalogFile; spec: RequestSpec; depth: number };

/** Does the request match the filter: its name, its file's path, its URL or its method (case-insensitive)? */
function matches(file: CatalogFile, spec: RequestSpec, filter: string): boolean {
  return `${spec.name}\n${file.label}\n${spec.url}\n${spec.method}`.toLowerCase().includes(filter);
}

/**
 * The rows of the request tree: folders (each a node that folds), their files, and each file's
 * requests. A filter (case-insensitive, on request names, file paths, URLs and methods) shows
 * only matching requests with their files and folders, unfolded.
 */
export function treeRows(catalog: Catalog, options: { filter?: string; collapsed?: ReadonlySet<string> } = {}): TreeRow[] {
  const filter = options.filter?.trim().toLowerCase() ?? '';
  const isCollapsed = (path: string): boolean => filter === '' && options.collapsed?.has(path) === true;
  const rows: TreeRow[] = [];
  const opened = new Set<string>();
  for (const file of catalog.files) {
    const specs = filter === '' ? file.specs : file.specs.filter((spec) => matches(file, spec, filter));
    if (filter !== '' && specs.length === 0) continue;
    // The folders above the file, outermost first: each is a row the first time it is met.
    const parts = file.label.split(sep);
    let hidden = false;
    for (let depth = 0; depth < parts.length - 1 && !hidden; depth++) {
      const label = parts.slice(0, depth + 1).join(sep);
      const path = join(catalog.root, label);
      if (!opened.has(path)) {
        opened.add(path);
        rows.push({ kind: 'folder', path, label: parts[depth] as string, depth, collapsed: isCollapsed(path) });
      }
      hidden = isCollapsed(path);
    }
    if (hidden) continue;
    const depth = parts.length - 1;
    const collapsed = isCollapsed(file.path);
    rows.push({ kind: 'file', file, depth, collapsed });
    if (!collapsed) for (const spec of specs) rows.push({ kind: 'request', file, spec, depth });
  }
  return rows;
}

/** Where a row is in the tree, to keep the selection across a rebuild (filter, reload). */
export function rowKey(row: TreeRow): string {
  if (row.kind === 'folder') return `${row.path}${sep}`;
  return row.kind === 'file' ? row.file.path : `${row.file.path}\u0000${row.spec.source.index ?? row.spec.name}`;
}

/** One line of the tree: `▾ more/`, `  ▾ users.http`, `    GET    list users` (method coloured), indented by depth. */
export function rowLabel(row: TreeRow, colors: Palette): string {
  const indent = '  '.repeat(row.depth);
  if (row.kind === 'folder') return `${indent}${row.collapsed ? '▸' : '▾'} ${shown(row.label)}/`;
  if (row.kind === 'file') {
    const name = shown(basename(row.file.label));
    if (row.file.error) return `${indent}${colors.error('✗')} ${name}`;
    return `${indent}${row.collapsed ? '▸' : '▾'} ${name}`;
  }
  const method = shown(row.spec.method.length > 6 ? row.spec.method.slice(0, 6) : row.spec.method);
  return `${indent}  ${colors.method(method)}${' '.repeat(Math.max(1, 7 - method.length))}${shown(row.spec.name)}`;
}
