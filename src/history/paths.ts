/**
 * Where histories live: `<state>/history/<project>/<profile>.ndjson`, beside the sessions and
 * keyed the same way (a project's path percent-encoded, so a listing shows whose is whose).
 */
import { join } from 'node:path';
import { projectKey } from '../core/project.js';
import { stateDir } from '../core/state-dir.js';

/** Each history file holds at most this much before it is rotated (`REQFLOW_HISTORY_MAX_BYTES` overrides). */
const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;

/** The file a rotated history moves to (one is kept; the one before it is dropped). */
export const ROTATED_SUFFIX = '.1';

export const HISTORY_EXTENSION = '.ndjson';

/** The folder of a project's histories, one file per profile. */
export function historyFolder(project: string, env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), 'history', projectKey(project));
}

export function historyPath(project: string, profile: string, env: NodeJS.ProcessEnv): string {
  return join(historyFolder(project, env), `${encodeURIComponent(profile)}${HISTORY_EXTENSION}`);
}

/** The size cap of a history file: `REQFLOW_HISTORY_MAX_BYTES` when it is a positive whole number, else 20 MB. */
export function historyMaxBytes(env: NodeJS.ProcessEnv): number {
  const value = env.REQFLOW_HISTORY_MAX_BYTES;
  return value !== undefined && /^\d+$/.test(value) && Number(value) > 0 ? Number(value) : DEFAULT_MAX_BYTES;
}
