import { AsyncLocalStorage } from 'node:async_hooks';
import { dirname, join, resolve } from 'node:path';
import { BUILTIN_PLUGINS } from '../pipeline/builtins.js';
import { ExitCode, ReqflowError, isReqflowError } from '../core/errors/index.js';
import { AgentPool } from '../core/http/agents.js';
import { SessionCookieJar } from '../core/http/cookie-jar.js';
import { proxyRules, type ProxyRules } from '../core/http/proxy.js';
import type { OutgoingServices } from '../report/outgoing-request.js';
import { MASK, SecretRegistry, isSecretName, redact } from '../core/mask.js';
import type { OutputSink, Profile, RequestSpec, RunOptions } from '../core/model.js';
import { PROFILES_FILE, loadProfiles, profilesFileFor, selectProfile, type ProfilesDocument } from '../core/profiles.js';
import { real } from '../core/project.js';
import type { Prompter } from '../core/prompt.js';
import { PluginRegistry, type PluginEntry } from '../core/registry.js';
import type { RunServices } from '../pipeline/create-context.js';
import { runRequest } from '../pipeline/loop.js';
import { parseRequestFile } from '../pipeline/parse-file.js';
import { validateFilters } from '../pipeline/pick-requests.js';
import { listedRequests } from '../pipeline/request-file.js';
import { RunChain } from '../chain/chain.js';
import { runTexts } from '../chain/needs-chain.js';
import { createFeed } from '../report/feed.js';
import type { Reporter, RequestOutcome } from '../report/reporter.js';
import { loadProfileSession, type FileSession } from '../core/session.js';
import { openScriptGlobals } from '../core/script-globals.js';
import { openHistory } from '../history/log.js';
import { isShellValue } from '../core/shell.js';
import { loadCatalog, type Catalog } from './catalog.js';
import { AbortHooks } from '../core/abort-hooks.js';
import { loadEnvironment, withToolDefaultHeaders } from '../core/environments.js';
import { paneReporter } from './pane-reporter.js';
import type { ResponseCapture } from './response-capture.js';
import { oauthStatus, shortStatus } from '../plugins/auth-oauth2/status.js';
import { warningLine } from '../report/render/visible.js';

/** Where one run's output, reports and prompts go. */
export interface RunIo {
  output: OutputSink;
  reporter: Reporter;
  prompter: Prompter;
  signal: AbortSignal;
  onPhases?: RunServices['onPhases'];
}

export interface WorkspaceOptions {
  /** The folder whose request files are shown (absolute). */
  dir: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Run options from the flags (`-e`, `--timeout`, `-k`, ...). */
  options: RunOptions;
  /** `-p NAME`. */
  profile?: string;
  /** `--profiles PATH`. */
  profilesPath?: string;
  thirdParty?: PluginEntry[];
}

/** One row of the `v` overlay. */
export interface VariableRow {
  name: string;
  /** Masked when the name looks secret. */
  value: string;
  source: '-e' | 'session' | 'profile';
  note?: string;
}

/**
 * Everything the UI works on, without any drawing: the request files, the profiles file and
 * the chosen profile, its session, and the run services every send shares (plugin registry,
 * keep-alive agents, secrets seen so far, prompt answers).
 */
export class Workspace {
  readonly registry: PluginRegistry;
  readonly secrets = new SecretRegistry();
  readonly agents = new AgentPool();
  /** Plugins' caches shared by the requests sent from this window (ctx.runState). */
  private readonly runState: Record<string, unknown> = {};
  catalog: Catalog = { root: '', files: [], truncated: false };
  document: ProfilesDocument = { profiles: [] };
  profile!: Profile;
  session!: FileSession;
  /** Why the profiles file or the requested profile could not be used (the UI shows it). */
  profileProblem?: ReqflowError;
  /** What reading a session said (one kept for an earlier folder at the project's path, set aside): the UI shows it. */
  sessionNotice?: string;
  /** Interactive answers: asked once per project and profile while the UI runs (promptCacheOf). */
  private promptCaches = new Map<string, Map<string, string>>();
  /**
   * Chaining state per request file, kept while the window is open: a request sent once is
   * what later `{{login.response.body.$.token}}` references read (it is not sent again).
   */
  private readonly chains = new Map<string, Promise<RunChain>>();
  /** The services of each send in progress (several may run at once): a referred-to request runs with those of the send that needs it. */
  private readonly sending = new AsyncLocalStorage<RunServices>();

  private constructor(readonly config: WorkspaceOptions) {
    this.registry = new PluginRegistry(BUILTIN_PLUGINS, config.thirdParty ?? []);
    for (const [name, value] of Object.entries(config.options.cliVariables)) if (isSecretName(name)) this.secrets.add(value);
  }

  static async open(config: WorkspaceOptions): Promise<Workspace> {
    const workspace = new Workspace(config);
    await workspace.reloadProfiles(config.profile);
    await workspace.reloadCatalog();
    return workspace;
  }

  get options(): RunOptions {
    return this.config.options;
  }

  async reloadCatalog(): Promise<void> {
    this.catalog = await loadCatalog(this.config.dir, this.registry);
  }

  /** Where `O` saves: the profiles file in use, else `.profiles.json` in the folder. */
  profilesFileForSaving(): string {
    if (this.document.path) return this.document.path;
    return this.config.profilesPath ? resolve(this.config.cwd, this.config.profilesPath) : join(this.config.dir, PROFILES_FILE);
  }

  /**
   * Re-reads the profiles file and selects `wanted` (else `-p`, `REQFLOW_PROFILE`, `default`,
   * the first). Problems are kept in `profileProblem`, never thrown: the UI still opens.
   */
  async reloadProfiles(wanted?: string): Promise<void> {
    delete this.profileProblem;
    const { dir, cwd, env } = this.config;
    try {
      const path = await profilesFileFor(dir, cwd, this.config.profilesPath);
      this.document = path ? await loadProfiles(path) : { profiles: [] };
    } catch (error) {
      this.profileProblem = asReqflowError(error);
      // A file broken while the UI runs: keep working with the profiles read before.
      if (this.profile) return;
      this.document = { profiles: [] };
    }
    let profile: Profile;
    try {
      profile = selectProfile(this.document, wanted, env, cwd);
    } catch (error) {
      this.profileProblem ??= asReqflowError(error);
      profile = selectProfile(this.document, undefined, {}, cwd);
    }
    await this.useProfile(profile);
  }

  async useProfile(profile: Profile): Promise<void> {
    if (this.profile?.name !== profile.name) this.promptCaches = new Map(); // answers belong to a profile
    this.profile = profile;
    this.session = await this.loadSession();
  }

  async switchProfile(name: string): Promise<void> {
    const profile = this.document.profiles.find((p) => p.name === name);
    if (!profile) throw new ReqflowError(`unknown profile "${name}"`, { exitCode: ExitCode.usage });
    await this.useProfile(profile);
  }

  /** The session as stored now (another terminal may have logged in or out meanwhile). */
  async loadSession(): Promise<FileSession> {
    return loadProfileSession(this.profile.name, this.document, this.config.dir, { env: this.config.env, warn: (message) => (this.sessionNotice = message) });
  }

  async refreshSession(): Promise<void> {
    this.session = await this.loadSession();
  }

  /**
   * The session of `file`'s project as stored now, as `reqflow run FILE` has it: a repository of
   * its own under the opened folder is its own project, so a login sent from one is never sent to
   * another's server. Each send takes its own (sends run at once).
   */
  async sessionOf(file: string): Promise<FileSession> {
    return (await this.runContextOf(file)).session;
  }

  /**
   * The profiles, profile and session a send of `file` uses, as `reqflow run FILE` finds them from
   * the file's real folder: a repository with a profiles file of its own under the opened folder
   * uses that file (the profile of the chosen name, else its own default), never the opened
   * folder's values or headers.
   */
  private async runContextOf(file: string, warn: (message: string) => void = (message) => (this.sessionNotice = message)): Promise<{ document: ProfilesDocument; profile: Profile; session: FileSession }> {
    const dir = dirname(real(file));
    const { cwd, env } = this.config;
    const path = await profilesFileFor(dir, cwd, this.config.profilesPath);
    let document = this.document;
    let profile = this.profile;
    if (path !== this.document.path) {
      document = path ? await loadProfiles(path) : { profiles: [] };
      profile = document.profiles.find((p) => p.name === this.profile.name) ?? selectProfile(document, undefined, env, cwd);
    }
    const session = await loadProfileSession(profile.name, document, dir, { env, warn });
    return { document, profile, session };
  }

  /** The interactive answers of a project (and the profile in use): a password typed for one repository is never sent to another's. */
  private promptCacheOf(project: string | undefined): Map<string, string> {
    const key = project ?? '';
    let cache = this.promptCaches.get(key);
    if (!cache) this.promptCaches.set(key, (cache = new Map()));
    return cache;
  }

  /** The session's token in a few words: the same answer as `reqflow oauth status`. */
  tokenState(now = Date.now()): string {
    return shortStatus(oauthStatus(this.profile.name, this.session, { now }));
  }

  /**
   * Sends one request through the whole pipeline, as `reqflow run` does; `reporter` (by default
   * the pane reporter) writes into `capture`. Errors come back in the outcome, never thrown.
   */
  /** The cookie jar and proxy rules a send uses (the pane reporter prints a request as curl with them). */
  outgoingServices(session: FileSession = this.session, profile: Profile = this.profile): OutgoingServices & { proxy: ProxyRules } {
    const cookies = this.options.cookies === false ? undefined : new SessionCookieJar(session, (value) => this.secrets.add(value));
    return { proxy: proxyRules(this.options, this.config.env, this.secrets, profile), env: this.config.env, secrets: this.secrets, ...(cookies ? { cookies } : {}) };
  }

  async send(spec: RequestSpec, file: string, io: { capture: ResponseCapture; prompter: Prompter; signal: AbortSignal; reporter?: Reporter; output?: OutputSink }): Promise<RequestOutcome> {
    try {
      await validateFilters(listedRequests([spec]), undefined, this.options);
      const warn = (message: string): void => io.capture.err(warningLine(message));
      const context = await this.runContextOf(file, warn);
      this.session = context.session; // the status line's: the session last used
      const outgoing = this.outgoingServices(context.session, context.profile);
      const run: RunIo = { output: io.output ?? io.capture, reporter: io.reporter ?? paneReporter(io.capture, outgoing), prompter: io.prompter, signal: io.signal, onPhases: (phases) => (io.capture.phases = phases) };
      const services = await this.servicesFor(file, run, context, outgoing, warn);
      try {
        return await this.withChain(services, file, (chain) => chain.run(spec, file));
      } finally {
        await services.history?.flush(); // one send is the TUI's run
      }
    } catch (error) {
      const problem = asReqflowError(error);
      return { spec, error: problem, exitCode: problem.exitCode };
    }
  }

  /** A stress run from the UI (`L`): `body` runs with services whose reports go to `io.reporter`, on `io.agents`; no history is kept. */
  async withRunServices<T>(file: string, io: RunIo & { agents: AgentPool }, body: (services: RunServices) => Promise<T>): Promise<T> {
    const context = await this.runContextOf(file);
    const services = await this.servicesFor(file, io, context, this.outgoingServices(context.session, context.profile));
    return this.withChain(services, file, () => body(services));
  }

  /** The services of one run of `file` (the history's when `warn` is given: a send). */
  private async servicesFor(file: string, io: RunIo & { agents?: AgentPool }, context: { document: ProfilesDocument; profile: Profile; session: FileSession }, outgoing: ReturnType<Workspace['outgoingServices']>, warn?: (message: string) => void): Promise<RunServices> {
    const { document, profile, session } = context;
    // `--env NAME`: the environment files found from this request file up (as `reqflow run` does).
    // httpyac's JavaScript config runs in a trusted project only (docs/trust.md).
    const trust = async (config: string, required: boolean): Promise<boolean> => (await import('../trust/environment-trust.js')).mayRunConfig(config, required, { flag: this.options.trust === true, project: session.project, file: config }, warn ?? (() => undefined));
    const environment = await loadEnvironment(dirname(real(file)), this.options.environment, undefined, { trust });
    for (const value of environment?.secrets ?? []) this.secrets.add(value);
    const history = warn
      ? openHistory({ options: this.options, profile, project: session.project, folder: session.folder, ...(document.path ? { profilesFile: document.path } : {}), secrets: this.secrets, env: this.config.env, warn })
      : undefined;
    return {
      registry: this.registry,
      options: this.options,
      profile: withToolDefaultHeaders(profile, environment),
      ...(document.path ? { profilesPath: document.path } : {}),
      ...(this.config.profilesPath ? { profilesChosen: true } : {}),
      session,
      ...(environment ? { environment } : {}),
      output: io.output,
      report: createFeed(io.reporter, this.options.scriptTimeoutMs),
      prompter: io.prompter,
      promptCache: this.promptCacheOf(session.project),
      secrets: this.secrets,
      agents: io.agents ?? this.agents,
      signal: io.signal,
      abort: new AbortHooks(io.signal),
      runState: this.runState,
      env: this.config.env,
      ...(outgoing.cookies ? { cookies: outgoing.cookies } : {}),
      proxy: outgoing.proxy,
      ...(history ? { history } : {}),
      // The session was just read again: its globals as they are now (another terminal may have logged in).
      globals: openScriptGlobals(session, session.project, this.secrets),
      ...(io.onPhases ? { onPhases: io.onPhases } : {}),
    };
  }

  /** Runs `body` with `services` and the file's chain: a request referred to runs with the services of the run that needs it. */
  private async withChain<T>(services: RunServices, file: string, body: (chain: RunChain) => Promise<T>): Promise<T> {
    const chain = await this.sending.run(services, () => this.chainFor(file));
    services.chain = chain;
    return this.sending.run(services, () => body(chain));
  }

  /** One chain per file, made once even when two sends of the file start together. */
  private chainFor(file: string): Promise<RunChain> {
    const known = this.chains.get(file);
    if (known) return known;
    const running = (): RunServices => {
      const services = this.sending.getStore();
      if (!services) throw new ReqflowError('no request is being sent', { exitCode: ExitCode.internal });
      return services;
    };
    const made = (async () => {
      const services = running();
      const chain = new RunChain({ run: (spec, from) => runRequest(spec, from, running()), load: (path) => parseRequestFile(path, this.registry), concurrent: true, secrets: services.secrets, ...(services.options.scriptTimeoutMs !== undefined ? { scriptTimeoutMs: services.options.scriptTimeoutMs } : {}) }, services.environment?.variables, runTexts(services.environment?.variables, services.profile));
      chain.addFile(listedRequests(await parseRequestFile(file, this.registry)), file);
      return chain;
    })();
    made.catch(() => this.chains.delete(file)); // a file that does not parse now may later
    this.chains.set(file, made);
    return made;
  }

  /** The profile and environment sends use now: a send made with others is not shown as sent. */
  sendContext(): string {
    return `${this.profile.name}\u0000${this.options.environment ?? ''}`;
  }

  /** The environment (`--env`) the sends use; the chains start over (they hold its values). */
  useEnvironment(name: string | undefined): void {
    if (name === undefined) delete this.config.options.environment;
    else this.config.options.environment = name;
    this.chains.clear();
  }

  /** Every variable a request can use, with the source that wins (`-e`, then session, then profile). */
  variables(): VariableRow[] {
    const rows: VariableRow[] = [];
    const seen = new Set<string>();
    const show = (name: string, value: string): string => (isSecretName(name) ? MASK : redact(value, this.secrets));
    for (const [name, value] of Object.entries(this.options.cliVariables)) {
      seen.add(name);
      rows.push({ name, value: show(name, value), source: '-e', ...(isShellValue(value) ? { note: 'shell command, runs when sent' } : {}) });
    }
    for (const name of this.session.names().sort()) {
      if (seen.has(name)) continue;
      seen.add(name);
      rows.push({ name, value: show(name, this.session.get(name) ?? ''), source: 'session' });
    }
    for (const [name, variable] of Object.entries(this.profile.variables)) {
      if (seen.has(name)) continue;
      seen.add(name);
      const raw = typeof variable === 'string' ? variable : variable.value;
      const interactive = typeof variable !== 'string' && variable.interactive === true;
      const secret = isSecretName(name) || (typeof variable !== 'string' && variable.secret === true);
      const answered = this.promptCacheOf(this.session.project).get(name);
      const value = interactive && answered !== undefined ? answered : raw;
      const note = interactive ? (answered !== undefined ? 'interactive, answered' : 'interactive, asked when sent') : isShellValue(raw) ? 'shell command, runs when sent' : undefined;
      rows.push({ name, value: secret ? MASK : redact(value, this.secrets), source: 'profile', ...(note ? { note } : {}) });
    }
    return rows;
  }

  close(): void {
    this.agents.destroy();
  }
}

export function asReqflowError(error: unknown): ReqflowError {
  if (isReqflowError(error)) return error;
  return new ReqflowError(`internal error: ${error instanceof Error ? error.message : String(error)}`, { exitCode: ExitCode.internal, cause: error });
}
