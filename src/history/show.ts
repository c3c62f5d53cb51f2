/** `reqflow history show ID`: one exchange as it was kept — request, response, secrets masked. */
import { fileBodyPlaceholder } from '../core/file-body.js';
import { SecretRegistry } from '../core/mask.js';
import { shownPath } from '../core/resolve-path.js';
import { visibleJson, visibleText } from '../report/render/visible.js';
import { exitCodeOf } from '../cli/report-error.js';
import type { HistoryEntry, StoredBody } from './entry.js';
import { findEntry } from './find-entry.js';
import { cutFields, shownDuration, shownTime } from './format.js';
import type { HistoryIo } from './io.js';
import { currentProject } from './scope.js';

export interface ShowFlags {
  profiles?: string;
  json?: boolean;
  debug?: boolean;
}

function headerLines(headers: Record<string, string | string[]>): string[] {
  return Object.entries(headers).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((line) => `${name}: ${line}`));
}

function bodyLines(body: StoredBody, size: number): string[] {
  if (body.binary) return ['', `[${size} bytes of binary data, not kept]`];
  if (body.file !== undefined) return ['', fileBodyPlaceholder(body.file, size)];
  if (body.body === undefined) return [];
  return ['', body.body, ...(body.cut ? [`… (cut: the first 64 KiB of ${size} bytes)`] : [])];
}

/** The exchange as text, like `-v` shows a request and its response. */
function exchangeText(entry: HistoryEntry, cwd: string): string {
  const lines = [
    `${entry.id}  ${shownTime(entry.time)}  ${shownPath(entry.file, cwd)}:${entry.line}  "${entry.name}"  profile ${entry.profile}`,
    ...(entry.cut ? [`note: over the history's limits, only the beginning is kept of ${cutFields(entry.cut)}; it cannot be replayed`] : []),
    '',
    `${entry.method} ${entry.url}`,
    ...headerLines(entry.request.headers),
    ...bodyLines(entry.request, entry.request.size),
    '',
  ];
  if (entry.response && entry.status !== undefined) {
    lines.push(`${entry.status} ${entry.response.statusText}  ${shownDuration(entry.durationMs)}  ${entry.size} bytes`, ...headerLines(entry.response.headers), ...bodyLines(entry.response, entry.size));
    // After the body, as they came (and as -v shows them).
    if (entry.response.trailers) lines.push('', 'trailers:', ...headerLines(entry.response.trailers));
  }
  // An entry edited by hand, or an older reqflow's, may have no exit code: said so, not "exit undefined".
  if (entry.error) lines.push(`error (${entry.error.exitCode === undefined ? 'no exit code recorded' : `exit ${entry.error.exitCode}`}) after ${shownDuration(entry.durationMs)}: ${entry.error.message}`);
  return `${visibleText(lines.join('\n'))}\n`;
}

export function historyShowCommand(id: string, flags: ShowFlags, io: HistoryIo): Promise<number> {
  return exitCodeOf(
    async () => {
      const { project } = await currentProject(flags, io);
      const entry = await findEntry(id, project, io.env);
      io.stdout.write(flags.json ? `${visibleJson(JSON.stringify(entry))}\n` : exchangeText(entry, io.cwd));
      return 0;
    },
    io.stderr,
    () => ({ debug: flags.debug === true, secrets: new SecretRegistry() }),
    () => undefined,
  );
}
