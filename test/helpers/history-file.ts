/** Where the CLI keeps a profile's history in a project, and what the file holds, line by line. */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { HistoryEntry } from '../../src/history/entry.js';
import { historyPath } from '../../src/history/paths.js';

/** `project` is the project's folder (its profiles file's folder, or the request file's folder when it has no marker). */
export function historyFileFor(stateDir: string, project: string, profile = 'default'): string {
  return historyPath(realpathSync(project), profile, { REQFLOW_STATE_DIR: stateDir });
}

/** The entries of a history file, and the lines that are not entries (a torn line). */
export function historyLines(path: string): { entries: HistoryEntry[]; bad: string[] } {
  const entries: HistoryEntry[] = [];
  const bad: string[] = [];
  if (!existsSync(path)) return { entries, bad };
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line === '') continue;
    try {
      entries.push(JSON.parse(line) as HistoryEntry);
    } catch {
      bad.push(line);
    }
  }
  return { entries, bad };
}

/** A folder of its own in `tmp` (a project: it has a profiles file), with `files` in it; its real path. */
export function historyProject(tmp: { dir: string; write(name: string, text: string): string }, name: string, files: Record<string, string>, profiles = '[]'): string {
  tmp.write(`${name}/.profiles.json`, profiles);
  for (const [file, text] of Object.entries(files)) tmp.write(`${name}/${file}`, text);
  return realpathSync(join(tmp.dir, name));
}
