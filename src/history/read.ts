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
import { UsageError } from '../core/errors/index.js';
import { notAFile } from '../core/not-a-file.js';
import { LINE_END, type HistoryEntry, type HistorySummary } from './entry.js';
import { HISTORY_EXTENSION, ROTATED_SUFFIX, historyFolder } from './paths.js';

const NEWLINE = 0x0a;
/** Where an entry's summary ends: no string in it can hold these bytes (its quotes would be escaped). */
const EXCHANGE_KEY = Buffer.from(',"request":{');

/** A line longer than this is no entry reqflow wrote (its URL, headers and bodies are capped far below): skipped unread. */
const MAX_LINE_BYTES = 32 * 1024 * 1024;

/** Every field of a summary of the type it has: a line edited by hand (`"url": {}`) is skipped, not shown as `[object Object]` or a crash. */
function isSummary(value: unknown): value is HistorySummary {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<HistorySummary>;
  const optional = (field: unknown, type: 'number' | 'string'): boolean => field === undefined || typeof field === type;
  const error = entry.error as { message?: unknown; exitCode?: unknown } | undefined;
  return (
    entry.v === 1 && typeof entry.id === 'string' && typeof entry.time === 'string' && typeof entry.file === 'string' && typeof entry.name === 'string' && typeof entry.durationMs === 'number' &&
    typeof entry.method === 'string' && typeof entry.url === 'string' && optional(entry.project, 'string') && optional(entry.profile, 'string') && optional(entry.line, 'number') &&
    optional(entry.status, 'number') && optional(entry.size, 'number') && (error === undefined || (typeof error === 'object' && error !== null && typeof error.message === 'string' && optional(error.exitCode, 'number')))
  );
}

/** The request and response parts of a whole entry, of the shapes `history show` and `replay` read. */
function isExchange(entry: Partial<HistoryEntry>): boolean {
  const part = (value: unknown): boolean => typeof value === 'object' && value !== null && typeof (value as { headers?: unknown }).headers === 'object' && (value as { headers?: unknown }).headers !== null;
  return part(entry.request) && (entry.response === undefined || part(entry.response));
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
  // The start of a line that goes on in the next chunks: joined once, when its end comes (joining
  // at every chunk copied a long line over and over); past MAX_LINE_BYTES it is dropped.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  // Put in the history's place, a named pipe would be waited on for ever and a device (/dev/zero) read for ever.
  const kind = notAFile(path);
  if (kind) throw new UsageError(`${path}: it is ${kind}, not a history file`, { hint: 'move it away: reqflow writes the history there' });
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
      let start = 0;
      for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE, start)) {
        if (skipping) skipping = false;
        else if (pendingBytes > 0) {
          const whole = Buffer.concat([...pending, chunk.subarray(0, end)]);
          line(whole, 0, whole.length);
        } else if (end > start) line(chunk, start, end);
        pending = [];
        pendingBytes = 0;
        start = end + 1;
      }
      if (start < chunk.length && !skipping) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
        if (pendingBytes > MAX_LINE_BYTES) {
          pending = [];
          pendingBytes = 0;
          skipping = true;
        }
      }
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code === 'EISDIR') throw new UsageError(`${path}: it is a folder, not a history file`, { hint: 'move it away: reqflow writes the history there' });
    throw error;
  }
  if (pendingBytes > 0) {
    const rest = Buffer.concat(pending);
    line(rest, 0, rest.length); // no newline after it: whole if it parses, torn if not
  }
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
        return isSummary(entry) && isExchange(entry as Partial<HistoryEntry>) ? (entry as HistoryEntry) : undefined;
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
