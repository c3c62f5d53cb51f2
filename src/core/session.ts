import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { UsageError, fileErrorWords } from './errors/index.js';
import { withFileLock } from './file-lock.js';
import { lazyBuiltin } from './lazy-builtin.js';
import { notAFile } from './not-a-file.js';
import { stateJson } from './json-escape.js';
import { dirname, join } from 'node:path';
import { markOrigin } from './extracted-values.js';
import { isEarlierFolder, ProjectFolder, recordedIdentity, type FolderIdentity } from './folder-identity.js';
import { projectKey, projectRoot } from './project.js';
import { stateDir } from './state-dir.js';
import type { ProfilesDocument } from './profiles.js';
import type { Session } from './model.js';

/**
 * File of a profile's session in a project (`src/core/project.ts`): a session belongs to both,
 * so two projects' `default` profiles never share a token or a cookie. Names are encoded so that
 * any profile name is a safe file name.
 */
export function sessionPath(profile: string, project: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), 'sessions', projectKey(project), `${encodeURIComponent(profile)}.json`);
}

/** Where sessions were kept before they belonged to a project: one file per profile name. */
function legacySessionPath(profile: string, env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), 'sessions', `${encodeURIComponent(profile)}.json`);
}

export interface SessionOptions {
  /** The project root (`projectRoot`): the session is this project's. */
  project: string;
  env?: NodeJS.ProcessEnv;
  warn?: (message: string) => void;
  /** `--no-session`: the file is neither read nor written (an empty session, kept in memory). */
  memory?: boolean;
}

/**
 * A session an earlier reqflow kept per profile name alone (`sessions/<profile>.json`) was shared
 * by every project with a profile of that name: whose login it holds cannot be told, so it is
 * never adopted by a project (the first to run would send another project's token to its
 * servers). It is moved aside once, with a warning. Throws the file system's error.
 */
async function setAsideLegacySession(profile: string, options: SessionOptions): Promise<void> {
  const legacy = legacySessionPath(profile, options.env ?? process.env);
  if (!existsSync(legacy)) return;
  (await import('./session-set-aside.js')).setAsideSession(legacy, 'shared', profile, options.project, options.warn);
}

interface SessionFile {
  version: 1;
  /** The project folder the session was kept for (`folder-identity.ts`); absent in an earlier reqflow's file. */
  folder?: FolderIdentity;
  variables: Record<string, string>;
  data: Record<string, unknown>;
}

function emptyFile(): SessionFile {
  return { version: 1, variables: Object.create(null) as Record<string, string>, data: Object.create(null) as Record<string, unknown> };
}

/** A copy without a prototype: a variable named `__proto__` is set and saved like any other. */
function withoutPrototype<T>(value: Record<string, T> | undefined): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, value);
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}

/**
 * A session file's text. The file is reqflow's own, but anything may stand in its place: a named
 * pipe (a read waits for a writer for ever) or a device (/dev/zero never ends) is never read.
 */
function sessionText(path: string): string {
  const kind = notAFile(path);
  if (kind) throw Object.assign(new Error(kind), { code: kind }); // said by fileError: `…: a named pipe`
  return readFileSync(path, 'utf8');
}

/**
 * Loads a session. A corrupt file is reported through `warn` and moved aside
 * (`<file>.corrupt-<time>`), never silently overwritten. A session kept for an earlier folder at
 * the project's path (deleted and created again since: another repository, maybe) is never used:
 * it is moved aside (`<file>.earlier-<time>`) with one warning, and the session starts empty.
 */
export async function loadSession(profile: string, options: SessionOptions): Promise<FileSession> {
  const path = sessionPath(profile, options.project, options.env);
  const folder = new ProjectFolder(options.project);
  if (options.memory) return new FileSession(profile, path, emptyFile(), folder, true);
  try {
    await setAsideLegacySession(profile, options);
  } catch (error) {
    throw fileError(`the session of profile "${profile}" an earlier reqflow kept for every project cannot be moved aside`, legacySessionPath(profile, options.env ?? process.env), error);
  }
  let text: string;
  try {
    text = sessionText(path); // sync: small file, and fs/promises costs start-up time
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new FileSession(profile, path, emptyFile(), folder);
    throw fileError(`cannot read the session file of profile "${profile}"`, path, error);
  }
  let parsed: Partial<SessionFile> | undefined;
  try {
    parsed = JSON.parse(text) as Partial<SessionFile>;
    // `[]`, `"x"`: no session file either, moved aside as any other.
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !isStringRecord(parsed.variables ?? {}) || typeof (parsed.data ?? {}) !== 'object' || Array.isArray(parsed.data)) parsed = undefined;
  } catch {
    parsed = undefined;
  }
  // A later reqflow's file: its fields are not known here, so it is neither read nor written over.
  if (parsed !== undefined && parsed.version !== undefined && parsed.version !== 1) {
    throw new UsageError(`${path}: the session of profile "${profile}" was written by a later reqflow (version ${JSON.stringify(parsed.version).slice(0, 20)}): not read, not written over`, { hint: 'or run with --no-session' });
  }
  // No identity recorded (an earlier reqflow's file): adopted, and recorded at its next save.
  const recorded = recordedIdentity(parsed?.folder);
  if (parsed !== undefined && (recorded === undefined || !isEarlierFolder(recorded, folder.identity()))) {
    return new FileSession(profile, path, { version: 1, variables: withoutPrototype(parsed.variables), data: withoutPrototype(parsed.data) }, folder);
  }
  try {
    (await import('./session-set-aside.js')).setAsideSession(path, parsed === undefined ? 'corrupt' : 'earlier', profile, options.project, options.warn);
  } catch (error) {
    throw fileError(`the session file of profile "${profile}" is ${parsed === undefined ? 'corrupt' : "an earlier folder's"} and cannot be moved aside`, path, error);
  }
  return new FileSession(profile, path, emptyFile(), folder);
}

/**
 * The session of a profile where it is used: the project is the profiles file's folder, else
 * the project around the request's folder (`projectRoot`).
 */
export function loadProfileSession(profile: string, document: ProfilesDocument, requestDir: string, options: Omit<SessionOptions, 'project'>): Promise<FileSession> {
  return loadSession(profile, { ...options, project: projectRoot(requestDir, document.path) });
}

/** A file-system failure on a session file, as one clear line (exit 2) instead of a crash. */
function fileError(what: string, path: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === 'ELOCKED' ? 'another reqflow kept it locked for too long' : (fileErrorWords(code) ?? String(code ?? error));
  return new UsageError(`${what}: ${path}: ${why}`, { hint: 'sessions live in $REQFLOW_STATE_DIR, else $XDG_STATE_HOME/reqflow, else ~/.local/state/reqflow; fix or remove that path', cause: error });
}

/** A session file's content from disk: undefined when there is none, or when it is not a session file. */
function readSessionFile(path: string): SessionFile | undefined {
  let text: string;
  try {
    text = sessionText(path);
  } catch {
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as Partial<SessionFile>;
    if (!isStringRecord(parsed.variables ?? {}) || typeof (parsed.data ?? {}) !== 'object' || parsed.data === null) return undefined;
    const folder = recordedIdentity(parsed.folder);
    return { version: 1, ...(folder ? { folder } : {}), variables: withoutPrototype(parsed.variables), data: withoutPrototype(parsed.data) };
  } catch {
    return undefined;
  }
}

/**
 * How a session data entry this process changed merges with what the file holds when it saves:
 * `before` is the entry as this process found it, `mine` as it is now, `theirs` as another run
 * may have saved it meanwhile. Undefined: the entry is removed.
 */
export type DataMerge = (before: unknown, mine: unknown, theirs: unknown) => unknown;

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const isPlainRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The default three-way merge of a data entry: what only another run changed is kept, what this
 * one changed wins; an object merges field by field (script globals name by name), a list as a
 * set (items this run added or removed, on top of theirs).
 */
function mergeData(before: unknown, mine: unknown, theirs: unknown): unknown {
  if (sameJson(theirs, before)) return mine;
  if (sameJson(mine, before)) return theirs;
  if (isPlainRecord(mine) && isPlainRecord(theirs)) {
    const base = isPlainRecord(before) ? before : {};
    const out: Record<string, unknown> = { ...theirs };
    for (const key of new Set([...Object.keys(base), ...Object.keys(mine)])) {
      if (sameJson(mine[key], base[key])) continue;
      const value = mergeData(base[key], mine[key], theirs[key]);
      if (value === undefined) delete out[key];
      else out[key] = value;
    }
    return out;
  }
  if (Array.isArray(mine) && Array.isArray(theirs)) {
    const key = (item: unknown): string => JSON.stringify(item);
    const base = new Set((Array.isArray(before) ? before : []).map(key));
    const own = new Set(mine.map(key));
    const removed = new Set([...base].filter((item) => !own.has(item)));
    const kept = theirs.filter((item) => !removed.has(key(item)));
    const present = new Set(kept.map(key));
    return [...kept, ...mine.filter((item) => !base.has(key(item)) && !present.has(key(item)))];
  }
  return mine;
}

/**
 * A profile's session, saved under a lock and merged: `save` re-reads the file and writes back
 * only what this process changed (variable by variable, data key by data key), so two runs, or
 * a login and a refresh, at the same time never lose each other's values.
 */
export class FileSession implements Session {
  private readonly changedVariables = new Set<string>();
  private readonly changedData = new Set<string>();
  /** Each changed data entry as it was before this process changed it, and how it merges. */
  private readonly dataBefore = new Map<string, { value: unknown; merge: DataMerge }>();
  constructor(
    readonly profile: string,
    readonly path: string,
    private content: SessionFile,
    /** The project root the session belongs to (`projectRoot`), and the folder there: the run's history is kept beside it. */
    readonly folder: ProjectFolder,
    /** `--no-session`: never saved. */
    private readonly memory?: boolean,
  ) {}

  /** The project root's path. */
  get project(): string {
    return this.folder.path;
  }

  get(name: string): string | undefined {
    return Object.hasOwn(this.content.variables, name) ? this.content.variables[name] : undefined;
  }
  set(name: string, value: string, origin?: 'extracted'): void {
    markOrigin(this, name, origin);
    if (this.content.variables[name] === value) return;
    this.content.variables[name] = value;
    this.changedVariables.add(name);
  }
  delete(name: string): void {
    if (!Object.hasOwn(this.content.variables, name)) return;
    delete this.content.variables[name];
    this.changedVariables.add(name);
  }
  getData<T = unknown>(key: string): T | undefined {
    return this.content.data[key] as T | undefined;
  }
  setData(key: string, value: unknown, merge: DataMerge = mergeData): void {
    if (!this.dataBefore.has(key)) this.dataBefore.set(key, { value: structuredClone(this.content.data[key]), merge });
    if (value === undefined) delete this.content.data[key];
    else this.content.data[key] = value;
    this.changedData.add(key);
  }
  names(): string[] {
    return Object.keys(this.content.variables);
  }
  /**
   * What the file holds now (another run may have saved since this one read it): undefined for
   * `--no-session` or when there is no readable file. For a step several runs must not all take
   * (an OAuth refresh), under a lock beside the file.
   */
  savedNow(): { variables: Readonly<Record<string, string>>; data: Readonly<Record<string, unknown>> } | undefined {
    return this.memory ? undefined : readSessionFile(this.path);
  }
  changed(): boolean {
    return this.changedVariables.size > 0 || this.changedData.size > 0;
  }

  async save(): Promise<void> {
    if (this.memory || !this.changed()) return;
    const dir = join(this.path, '..');
    try {
      // Folders reqflow creates are 0700; one that exists (REQFLOW_STATE_DIR, a shared folder) is
      // never re-moded: the session file itself is 0600 whatever its folder.
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      // Under the session's lock (waiting for another run's save beats losing a value).
      await withFileLock(this.path, async () => {
        const merged = readSessionFile(this.path) ?? emptyFile();
        // The folder this session is for (the one checked as it was read): a session written by an earlier reqflow is recorded now.
        const folder = this.folder.identity() ?? merged.folder;
        for (const name of this.changedVariables) {
          if (Object.hasOwn(this.content.variables, name)) merged.variables[name] = this.content.variables[name] as string;
          else delete merged.variables[name];
        }
        for (const key of this.changedData) {
          // Entry by entry against what this process started from: another run's cookies and globals stay.
          const before = this.dataBefore.get(key);
          const value = before ? before.merge(before.value, this.content.data[key], merged.data[key]) : this.content.data[key];
          if (value !== undefined) merged.data[key] = value;
          else delete merged.data[key];
        }
        const { writeFileAtomic } = await import('./atomic-write.js'); // only a run that changed the session writes it
        const file: SessionFile = { version: 1, ...(folder ? { folder } : {}), variables: merged.variables, data: merged.data };
        await writeFileAtomic(this.path, `${stateJson(file, 2)}\n`, { mode: 0o600 });
        // Variables other runs saved meanwhile are visible from now on. The data entries stay as
        // this process holds them: their keepers (the cookie jar, the script globals) read them
        // once, so the next merge must start from what they hold, or it would take another run's
        // cookie, missing from this jar, for one this run removed.
        this.content = { version: 1, variables: merged.variables, data: this.content.data };
      });
    } catch (error) {
      throw fileError(`cannot save the session of profile "${this.profile}"`, this.path, error);
    }
    this.changedVariables.clear();
    this.changedData.clear();
    this.dataBefore.clear();
  }
}

/** A session kept in memory only (tests, `--no-session` style callers). */
export class MemorySession implements Session {
  private readonly variables = new Map<string, string>();
  private readonly data = new Map<string, unknown>();
  constructor(readonly profile: string) {}
  get(name: string): string | undefined {
    return this.variables.get(name);
  }
  set(name: string, value: string, origin?: 'extracted'): void {
    markOrigin(this, name, origin);
    this.variables.set(name, value);
  }
  delete(name: string): void {
    this.variables.delete(name);
  }
  getData<T = unknown>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }
  setData(key: string, value: unknown): void {
    this.data.set(key, value);
  }
  names(): string[] {
    return [...this.variables.keys()];
  }
  async save(): Promise<void> {}

  changed(): boolean {
    return false;
  }
}
