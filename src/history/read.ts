/**
 * Reads history files, oldest entry first, a MiB at a time (a file is never read whole). A line
 * that is not an entry — the torn last line of a writer killed mid-write (it lacks the last key,
 * `LINE_END`), a line of a later version — is skipped.
 *
 * Most readers need an entry's summary only (`history`, `history stats`): every line's
 * summary comes first, before `"request":`, so only that part of a line is decoded and parsed;
 * the whole line is parsed for the entries a reader asks for (`history show`).
 */
import { createReadStream, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LINE_END, type HistoryEntry, type HistorySummary } from './entry.js';
import { HISTORY_EXTENSION, ROTATED_SUFFIX, historyFolder } from './paths.js';

const NEWLINE = 0x0a;
/** Where an entry's summary ends: no string in it can hold these bytes (its quotes would be escaped). */
const EXCHANGE_KEY = Buffer.from(',"request":{');

function isSummary(value: unknown): value is HistorySummary {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<HistorySummary>;
  return entry.v === 1 && typeof entry.id === 'string' && typeof entry.time === 'string' && typeof entry.file === 'string' && typeof entry.name === 'string' && typeof entry.durationMs === 'number';
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Calls `line` with each whole line of a file (bytes `start` to `end` of `buffer`); nothing when there is no file. */
async function forEachLine(path: string, line: (buffer: Buffer, start: number, end: number) => void): Promise<void> {
  let rest: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
      const buffer = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
      let start = 0;
      for (let end = buffer.indexOf(NEWLINE); end >= 0; end = buffer.indexOf(NEWLINE, start)) {
        if (end > start) line(buffer, start, end);
        start = end + 1;
      }
      rest = buffer.subarray(start);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (rest.length > 0) line(rest, 0, rest.length); // no newline after it: whole if it parses, torn if not
}

/** Each line's summary, and the whole entry on demand. */
async function scan(files: readonly string[], visit: (summary: HistorySummary, whole: () => HistoryEntry | undefined) => void): Promise<void> {
  for (const file of files) {
    await forEachLine(file, (buffer, start, end) => {
      // A torn line may hold a whole summary: it is not an entry, as `history show` could not read it.
      if (end - start < LINE_END.length || buffer.compare(LINE_END, 0, LINE_END.length, end - LINE_END.length, end) !== 0) return;
      const at = buffer.indexOf(EXCHANGE_KEY, start);
      const text = (to: number): string => buffer.toString('utf8', start, to);
      const summary = at >= 0 && at < end ? parsed(`${text(at)}}`) : undefined;
      if (!isSummary(summary)) return;
      visit(summary, () => {
        const entry = parsed(text(end));
        return isSummary(entry) && typeof (entry as Partial<HistoryEntry>).request === 'object' ? (entry as HistoryEntry) : undefined;
      });
    });
  }
}

/** Every entry's summary (no headers, no bodies), in the order of the files and their lines. */
export function forEachSummary(files: readonly string[], visit: (summary: HistorySummary) => void): Promise<void> {
  return scan(files, (summary) => visit(summary));
}

/** The whole entries whose summary `wanted` picks. */
export function forEachEntry(files: readonly string[], wanted: (summary: HistorySummary) => boolean, visit: (entry: HistoryEntry) => void): Promise<void> {
  return scan(files, (summary, whole) => {
    if (!wanted(summary)) return;
    const entry = whole();
    if (entry) visit(entry);
  });
}

/** A profile's history files, oldest first: the rotated one, then the current one. */
export function profileFiles(path: string): string[] {
  return [`${path}${ROTATED_SUFFIX}`, path];
}

/** Every history file of a project (all its profiles), each profile's rotated one first. */
export function projectFiles(project: string, env: NodeJS.ProcessEnv): string[] {
  const folder = historyFolder(project, env);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(HISTORY_EXTENSION))
    .sort()
    .flatMap((name) => profileFiles(join(folder, name)));
}
