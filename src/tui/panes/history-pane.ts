import type { HistoryEntry, HistorySummary } from '../../history/entry.js';
import { shownDuration, shownStatus, shownTime } from '../../history/format.js';
import { historyPath } from '../../history/paths.js';
import { checkHistoryFolder } from '../../history/folder-record.js';
import { forEachEntry, forEachSummary, profileFiles } from '../../history/read.js';
import { visible } from '../../report/render/visible.js';
import type { Workspace } from '../workspace.js';

/** Sends listed at most: the newest. */
const HISTORY_ROWS = 200;

/** The history files of the workspace's project and profile (what `reqflow history` reads there). */
function historyFiles(workspace: Workspace): string[] {
  return profileFiles(historyPath(workspace.session.project, workspace.profile.name, workspace.config.env));
}

/**
 * The newest sends of the project and profile, newest first (read from the store: they survive
 * restarts). A history kept for an earlier folder at the project's path is set aside first (`warn`).
 */
export async function latestSends(workspace: Workspace, limit = HISTORY_ROWS, warn: (message: string) => void = () => undefined): Promise<HistorySummary[]> {
  checkHistoryFolder(workspace.session.project, workspace.config.env, warn);
  let latest: HistorySummary[] = [];
  await forEachSummary(historyFiles(workspace), (summary) => {
    latest.push(summary);
    if (latest.length >= 2 * limit) latest = latest.slice(-limit); // memory bounded by the limit
  });
  return latest.slice(-limit).reverse();
}

/** One stored send, whole (its request and response as the history keeps them, masked). */
export async function storedSend(workspace: Workspace, id: string): Promise<HistoryEntry | undefined> {
  let found: HistoryEntry | undefined;
  await forEachEntry(historyFiles(workspace), (summary) => summary.id === id, (entry) => (found = entry));
  return found;
}

/** A row of the list: time, method, name, status, duration; `[cut]` when the history kept only the beginning of its URL or a header. */
export function historyRow(summary: HistorySummary): string {
  const method = summary.method.padEnd(6).slice(0, 7);
  return `${shownTime(summary.time)}  ${method} ${shownStatus(summary).padStart(3)} ${shownDuration(summary.durationMs).padStart(8)}  ${visible(summary.name)}${summary.cut ? '  [cut]' : ''}`;
}
