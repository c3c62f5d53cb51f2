/**
 * `reqflow history replay ID`: sends a kept request again — from its file, by its name, with its
 * profile (and profiles file and `--env`) — through the normal run path, so today's variables and
 * the real secrets are used, never the masked copy in the history.
 */
import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { BUILTIN_PLUGINS } from '../pipeline/builtins.js';
import { UsageError } from '../core/errors/index.js';
import { SecretRegistry } from '../core/mask.js';
import { findProfilesFile, loadProfiles } from '../core/profiles.js';
import { PluginRegistry, type PluginEntry } from '../core/registry.js';
import { isPlaceName } from '../core/place-name.js';
import { shownPath } from '../core/resolve-path.js';
import { parseRequestFile } from '../pipeline/parse-file.js';
import { visible, warningLine } from '../report/render/visible.js';
import { exitCodeOf } from '../cli/report-error.js';
import { runFileCommand, type CliIo } from '../cli/run-file.js';
import { STDIN_NAME } from '../cli/request-source.js';
import { SEND_NAME } from '../cli/send-request.js';
import type { RawRunFlags } from '../cli/run-flags.js';
import { PROXY_SOURCE, type HistoryEntry } from './entry.js';
import { findEntry } from './find-entry.js';
import { cutFields } from './format.js';
import { currentProject } from './scope.js';

/** The run flags `replay` takes: how to show the answer, and `-e` (the request's own variables are today's). */
export const REPLAY_FLAGS = ['variable', 'profiles', 'output', 'verbose', 'filter', 'debug'] as const;

export type ReplayFlags = Pick<RawRunFlags, (typeof REPLAY_FLAGS)[number]>;

type LoadThirdParty = (warn: (message: string) => void) => Promise<PluginEntry[]>;

/** The entry, once its file and request are known to be there still (exit 2 saying which is not). */
async function replayable(id: string, flags: ReplayFlags, io: CliIo, loadThirdParty: LoadThirdParty): Promise<HistoryEntry> {
  const { project } = await currentProject(flags, io);
  const entry = await findEntry(id, project, io.env);
  const file = shownPath(entry.file, io.cwd);
  if (basename(entry.file) === PROXY_SOURCE) throw new UsageError(`cannot replay ${entry.id}: it was recorded by reqflow proxy from another client, so no request file holds it`, { hint: 'reqflow proxy --save DIR keeps each captured request as a runnable .http file; reqflow history show shows this one' });
  // Sent from standard input or by `reqflow send`: no file holds it (a file of that name in the folder is another one).
  const unfiled = NO_FILE[basename(entry.file)];
  if (unfiled !== undefined) throw new UsageError(`cannot replay ${entry.id}: it was ${unfiled}, so no request file holds it`, { hint: `reqflow history show ${entry.id} shows what was sent` });
  if (entry.cut) throw new UsageError(`cannot replay ${entry.id}: the history kept only the beginning of ${cutFields(entry.cut)}, so it does not know what was sent`, { hint: `reqflow history show ${entry.id} shows what is kept; reqflow run ${file} -n "${entry.name}" sends the request from its file` });
  if (!existsSync(entry.file)) throw new UsageError(`cannot replay ${entry.id}: its request file is gone: ${file}`, { hint: 'it was moved or deleted since the request was sent' });
  const warn = (message: string): void => void io.stderr.write(`${warningLine(message)}\n`);
  const specs = await parseRequestFile(entry.file, new PluginRegistry(BUILTIN_PLUGINS, await loadThirdParty(warn)), warn);
  const named = specs.filter((spec) => spec.name === entry.name);
  if (named.length === 0) {
    throw new UsageError(`cannot replay ${entry.id}: ${file} has no request named "${entry.name}" any more (renamed or removed since it was sent)`, { hint: `requests in the file: ${specs.map((spec) => spec.name).join(', ')}` });
  }
  // Two of that name now: the first may be another request altogether (a DELETE added above the POST that was sent).
  if (named.length > 1) {
    throw new UsageError(`cannot replay ${entry.id}: ${file} now has ${named.length} requests named "${entry.name}" (lines ${named.map((spec) => spec.source.line).join(', ')}); the one sent was ${entry.method} at line ${entry.line}`, { hint: 'give each request a name of its own, then replay; nothing was sent' });
  }
  // The request of that name now: another one altogether when its method changed (an unnamed
  // `request-2` is the second request, whichever that is now: a DELETE added above the GET sent).
  // Only where the method sent is the one the file gives (written, or GET when none is): GraphQL
  // sends a POST, and an httpyac hook may change it.
  const [spec] = named;
  const asWritten = spec !== undefined && spec.annotations.protocol === undefined && spec.chain?.scripts?.some((script) => script.phase === 'request') !== true;
  if (spec && asWritten && spec.method !== entry.method) {
    throw new UsageError(`cannot replay ${entry.id}: "${entry.name}" of ${file} is now a ${spec.method} (line ${spec.source.line}); the one sent was a ${entry.method} at line ${entry.line}`, { hint: 'the file changed since; give the request a name of its own (### name), then send it again with reqflow run; nothing was sent' });
  }
  // An unnamed request is named by its place alone: that place may hold another request of the
  // same method now (a GET added above the GET sent). It is sent again only where it was, and
  // only when its URL as written could have been the one sent (its templates aside).
  if (spec && isPlaceName(spec.name)) {
    const moved = spec.source.line !== entry.line ? `that place is now line ${spec.source.line}; the one sent was at line ${entry.line}` : !couldBeSent(spec.url, entry.url) ? `its URL there is now ${visible(spec.url)}; the one sent was ${visible(entry.url)}` : undefined;
    if (moved !== undefined) throw new UsageError(`cannot replay ${entry.id}: "${entry.name}" of ${file} has no name of its own, and ${moved}, so it may be another request`, { hint: 'give the request a name of its own (### name), then send it again with reqflow run; nothing was sent' });
  }
  return entry;
}

/**
 * Could `written` (a URL as the file writes it, `{{templates}}` and all) have been sent as `sent`?
 * Its text between templates must appear in `sent` in order, each template standing for anything;
 * both decoded (sending percent-encodes what a file may write as it is), a trailing `/` aside,
 * and a URL written without its scheme (`/items`, `localhost:3000/items`) may have gained one.
 */
function couldBeSent(written: string, sent: string): boolean {
  const decoded = (text: string): string => {
    try {
      return decodeURI(text).replace(/\/$/, '');
    } catch {
      return text.replace(/\/$/, '');
    }
  };
  const literals = decoded(written).split(/\{\{[\s\S]*?\}\}/);
  const target = decoded(sent);
  const first = literals[0] as string;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(first);
  if (literals.length === 1) return withScheme ? target === first : target.endsWith(first);
  if (withScheme ? !target.startsWith(first) : !target.includes(first)) return false;
  let at = target.indexOf(first) + first.length;
  for (const part of literals.slice(1, -1)) {
    const found = target.indexOf(part, at);
    if (found < 0) return false;
    at = found + part.length;
  }
  const last = literals.at(-1) as string;
  return target.length - last.length >= at && target.endsWith(last);
}

/** The request "files" of requests no file holds: how each was sent. */
const NO_FILE: Record<string, string> = { [STDIN_NAME]: 'read from standard input', [SEND_NAME]: 'sent by reqflow send' };

export async function historyReplayCommand(id: string, flags: ReplayFlags, io: CliIo, loadThirdParty: LoadThirdParty): Promise<number> {
  let plugins: Promise<PluginEntry[]> | undefined;
  const loadOnce: LoadThirdParty = (warn) => (plugins ??= loadThirdParty(warn));
  let entry: HistoryEntry | undefined;
  const code = await exitCodeOf(
    async () => {
      entry = await replayable(id, flags, io, loadOnce);
      return 0;
    },
    io.stderr,
    () => ({ debug: flags.debug === true, secrets: new SecretRegistry() }),
    () => undefined,
  );
  if (!entry) return code;
  io.stderr.write(`${visible(`reqflow: replaying ${entry.id}: "${entry.name}" of ${shownPath(entry.file, io.cwd)} with profile ${entry.profile}`)}\n`);
  const { profilesFile, environment } = entry.sentWith ?? {};
  const profiles = flags.profiles ?? (profilesFile !== undefined && existsSync(profilesFile) ? profilesFile : undefined);
  const runFlags: RawRunFlags = { ...flags, name: [entry.name], ...(profiles !== undefined ? { profiles } : {}), ...(environment !== undefined ? { env: environment } : {}) };
  // The implicit `default` profile (no profiles file defines any) is what a run without -p gets; -p default would be "unknown".
  const implicit = entry.profile === 'default' && (await definesNoProfile(entry, profiles, io.cwd));
  const runIo: CliIo = implicit ? { ...io, env: { ...io.env, REQFLOW_PROFILE: '' } } : io;
  if (!implicit) runFlags.profile = entry.profile;
  return runFileCommand(entry.file, runFlags, runIo, loadOnce);
}

/** True when the run will find no profiles file, or one that defines no profile (given, else found from the request's folder). */
async function definesNoProfile(entry: HistoryEntry, profiles: string | undefined, cwd: string): Promise<boolean> {
  try {
    const path = profiles ?? (await findProfilesFile(dirname(entry.file), cwd));
    return path === undefined || (await loadProfiles(path)).profiles.length === 0;
  } catch {
    return false; // a broken profiles file: the run names the problem
  }
}
