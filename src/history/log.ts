/**
 * A run's history while it runs: the `history` hook adds each request here, and the entries are
 * appended to the history file once, when the run ends — or sooner, a MiB at a time, so a long
 * run's memory stays bounded. The writer (masking, the file) loads only then.
 */
import { ProjectFolder } from '../core/folder-identity.js';
import type { SecretRegistry } from '../core/mask.js';
import type { Profile, RunOptions } from '../core/model.js';
import { capExchange } from './cap-exchange.js';
import type { HistoryTarget, RecordedExchange } from './entry.js';
import { historyMaxBytes, historyPath } from './paths.js';

/** Waiting entries are written once they hold about this much. */
const FLUSH_BYTES = 1024 * 1024;
/** What an entry weighs beside its bodies, URL and headers (counted: up to 576 KiB kept), roughly. */
const ENTRY_BYTES = 1024;

export class HistoryLog {
  private pending: RecordedExchange[] = [];
  private pendingBytes = 0;
  /** Writes happen one after another, in the order of the requests. */
  private writing: Promise<void> = Promise.resolve();
  private warned = false;

  constructor(
    readonly target: HistoryTarget,
    private readonly secrets: SecretRegistry,
    private readonly warn: (message: string) => void,
    /** The project's folder: the entries are written for the folder there (the session's, read once a run). */
    private readonly folder: ProjectFolder = new ProjectFolder(target.project),
  ) {}

  /** Keeps the exchange held to the history's limits (`cap-exchange.ts`): what is over them is let go now. */
  add(recorded: RecordedExchange): void {
    const { exchange, chars } = capExchange(recorded);
    this.pending.push(exchange);
    this.pendingBytes += ENTRY_BYTES + chars + (exchange.requestBody?.length ?? 0) + (exchange.response?.body?.length ?? 0);
    if (this.pendingBytes >= FLUSH_BYTES) void this.flush();
  }

  /**
   * Appends the waiting entries, masked with every secret the run knows by now. Never throws: a
   * history that cannot be written is one warning, and the run goes on.
   */
  flush(): Promise<void> {
    if (this.pending.length === 0) return this.writing;
    const batch = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    this.writing = this.writing
      .then(async () => {
        const folder = this.folder.identity();
        (await import('./write.js')).appendHistory(folder ? { ...this.target, folder } : this.target, batch, this.secrets, this.warn);
      })
      .catch((error: unknown) => {
        if (!this.warned) this.warn(`cannot write the history: ${this.target.path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
        this.warned = true;
      });
    return this.writing;
  }
}

export interface HistorySetup {
  /** `--no-history` and `--env` (what the history needs of a run's options). */
  options: Pick<RunOptions, 'history' | 'environment'>;
  profile: Profile;
  /** The project root (the session's: `FileSession.project`). */
  project: string;
  /** The session's `ProjectFolder`, so that the run reads the folder's identity once; absent: read when the history is written. */
  folder?: ProjectFolder;
  profilesFile?: string;
  secrets: SecretRegistry;
  env: NodeJS.ProcessEnv;
  warn(message: string): void;
}

/** The run's history, unless `--no-history` or the profile's `"history": false` turns it off. */
export function openHistory(setup: HistorySetup): HistoryLog | undefined {
  const { options, profile, project, env } = setup;
  if (options.history === false || profile.history === false) return undefined;
  const target: HistoryTarget = { path: historyPath(project, profile.name, env), project, profile: profile.name, maxBytes: historyMaxBytes(env) };
  if (setup.profilesFile !== undefined) target.profilesFile = setup.profilesFile;
  if (options.environment !== undefined) target.environment = options.environment;
  return new HistoryLog(target, setup.secrets, setup.warn, setup.folder);
}
