/**
 * Which requests of a file a run sends (`-n NAME`), and their filters checked before anything
 * is sent. Loaded only by a run that names requests or has a filter.
 */
import { UsageError } from '../core/errors/index.js';
import { requestFilter, validateFilter } from '../core/filter.js';
import type { RunOptions } from '../core/model.js';
import type { RequestFile } from './request-file.js';

/** `-n NAME` (repeatable) picks requests, by position; an unknown name is exit 2 listing the names. No names: every request (undefined). */
export function selectRequests(requests: RequestFile, names: readonly string[]): number[] | undefined {
  if (names.length === 0) return undefined;
  const picked: number[] = [];
  const found = new Set<string>();
  for (let index = 0; index < requests.count; index++) {
    const name = requests.name(index);
    if (!names.includes(name)) continue;
    picked.push(index);
    found.add(name);
  }
  const missing = names.find((name) => !found.has(name));
  if (missing !== undefined) {
    throw new UsageError(`no request named "${missing}"`, { hint: `requests in this file: ${Array.from({ length: requests.count }, (_, index) => requests.name(index)).join(', ')}` });
  }
  return picked;
}

/** Every filter is compiled before anything is sent: `--filter`, and those of the requests picked. */
export async function validateFilters(requests: RequestFile, picked: readonly number[] | undefined, options: RunOptions): Promise<void> {
  if (options.filter !== undefined) await validateFilter(options.filter, ' (--filter)');
  for (const index of requests.filtered) {
    if (picked && !picked.includes(index)) continue;
    const spec = requests.spec(index);
    const filter = requestFilter(options, spec.annotations);
    if (filter !== undefined && filter !== options.filter) await validateFilter(filter, ` in request "${spec.name}" (${spec.source.file}:${spec.source.line})`);
  }
}
