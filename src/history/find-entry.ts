/** One entry of a project's history (any profile) by its id, or a unique beginning of it. */
import { UsageError } from '../core/errors/index.js';
import type { HistoryEntry } from './entry.js';
import { forEachEntry, projectFiles } from './read.js';

export async function findEntry(id: string, project: string, env: NodeJS.ProcessEnv): Promise<HistoryEntry> {
  const wanted = id.toLowerCase();
  if (!/^[0-9a-f]{4,}$/.test(wanted)) throw new UsageError(`"${id.slice(0, 40)}" is not a history id`, { hint: 'ids are hex digits (at least the first 4), as `reqflow history` lists them' });
  const found = new Map<string, HistoryEntry>();
  await forEachEntry(projectFiles(project, env), (summary) => summary.id.startsWith(wanted), (entry) => found.set(entry.id, entry));
  if (found.size === 1) return [...found.values()][0] as HistoryEntry;
  if (found.size === 0) throw new UsageError(`no history entry ${id} in ${project}`, { hint: 'reqflow history lists the entries of this project (-p for another profile)' });
  throw new UsageError(`${found.size} history entries start with ${id}: ${[...found.keys()].slice(0, 5).join(', ')}`, { hint: 'give more of the id' });
}
