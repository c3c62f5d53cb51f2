/**
 * The chaining state of one run: the exchanges of the named requests that ran, the values
 * captured or set by scripts (`client.global`), and running a referenced request first when it
 * has not run yet (once; `# @forceRef` always). One `RunChain` per run of a file (or per TUI
 * session); nothing here is module-level.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { dirname, resolve } from 'node:path';
import { BoundedRunner } from '../core/bounded-run.js';
import { type ExitCodeValue, NoRequestsError, ParseError, ReqflowError, UsageError, VariableError } from '../core/errors/index.js';
import type { RequestSpec } from '../core/model.js';
import type { RequestOutcome } from '../report/reporter.js';
import { listedRequests, type RequestFile } from '../pipeline/request-file.js';
import type { Exchange } from './exchange.js';
import { parseReference, resolveReference } from './references.js';
import type { ScriptWorker } from '../scripts/script-worker.js';
import { SecretPieces } from '../scripts/secret-pieces.js';
import type { ExportedFunction } from '../scripts/exported-functions.js';
import type { GlobalKind } from '../scripts/jetbrains-api.js';
import { templateExpressions } from '../core/variables.js';
import { readConfigFile } from '../core/read-config-file.js';
import { resolvePath } from '../core/resolve-path.js';
import { templateHeads } from './needs-chain.js';

export interface ChainHost {
  /** Sends one request through the whole pipeline (the loop's `runRequest`). */
  run(spec: RequestSpec, file: string): Promise<RequestOutcome>;
  /** Parses another request file (`# @depends ./login.http`). */
  load(path: string): Promise<RequestSpec[]>;
  /** `--dry-run`: nothing is sent, so a reference to a response is shown as written. */
  dryRun?: boolean;
  /**
   * Several sends of this chain may run at once (the TUI). Their cycle stacks are then kept
   * apart with an AsyncLocalStorage — which makes every promise of the process cost more, so
   * the CLI, which sends one request at a time, keeps one plain stack.
   */
  concurrent?: boolean;
  /** The run's secrets (its `SecretRegistry`), read as they grow: for pieces of them in what scripts print ({@link RunChain.withoutSecretPieces}). */
  secrets?: Iterable<string>;
  /** `--script-timeout`: the limit of the file's patterns and JSONPaths too ({@link RunChain.bounded}). */
  scriptTimeoutMs?: number;
}

/** A file whose requests may be named: its names are looked up in it (`RequestFile.indexOf`), not copied into a map. */
interface KnownFile {
  requests: RequestFile;
  file: string;
}

/** What a request's templates and `# @ref`s name, kept only for requests that name something. */
interface Links {
  location: string;
  name: string;
  /** The `{{word.` heads of its templates: requests, if a request has that name. */
  heads: readonly string[];
  refs: readonly string[];
}

/**
 * Every text of a request where a template may refer to another request: its own, and the file
 * variables they use (through others too). A file variable no template of the request uses is
 * not its dependency: `@adminToken = {{loginAdmin.response.body.token}}` at the top of a file
 * must not make `login` wait for `loginAdmin` (VS Code resolves file variables when used).
 */
function templatesOf(spec: RequestSpec): string[] {
  const texts = [spec.url, ...Object.values(spec.headers).flat()];
  if (typeof spec.body === 'string') texts.push(spec.body);
  for (const part of spec.bodyParts ?? []) if (part.kind === 'text') texts.push(part.text);
  for (const assertion of spec.chain?.assertions ?? []) texts.push(assertion.text);
  if (spec.loop?.values !== undefined) texts.push(spec.loop.values);
  if (spec.loop?.count !== undefined) texts.push(spec.loop.count);
  const variables = spec.fileVariables ?? {};
  const used = new Set<string>();
  for (let i = 0; i < texts.length; i++) {
    for (const name of templateExpressions(texts[i] as string)) {
      if (used.has(name) || !Object.hasOwn(variables, name)) continue;
      used.add(name);
      texts.push(variables[name] as string);
    }
  }
  return texts;
}

/**
 * The text of each `<@ file` a request includes, read now for the requests its templates name
 * (they must be kept when they run). `undefined` in the list: a file that cannot be read ahead (a
 * path made of templates; not a regular UTF-8 file of at most 4 MiB, as a settings file; not there
 * yet), which may name any request. Sending it will say why it cannot be read.
 */
function includedTexts(spec: RequestSpec, file: string): (string | undefined)[] {
  const texts: (string | undefined)[] = [];
  for (const part of spec.bodyParts ?? []) {
    if (part.kind !== 'file' || !part.substitute) continue;
    try {
      texts.push(part.path.includes('{{') ? undefined : readConfigFile(resolvePath(part.path, dirname(resolve(file)))));
    } catch {
      texts.push(undefined);
    }
  }
  return texts;
}

/** Does the request run code in the script sandbox: scripts, or `?? js …` checks? */
export const usesSandbox = (spec: RequestSpec): boolean => (spec.chain?.scripts?.length ?? 0) > 0 || (spec.chain?.assertions?.some((assertion) => /^\s*js\s/.test(assertion.text)) ?? false);

/**
 * A request's identity, the same for the parsed spec and the copy a request's stages work on:
 * its file and its position there (the line alone is not one: a YAML list's items share line 1).
 */
const locationOf = (spec: RequestSpec): string => `${spec.source.file}#${spec.source.index ?? `line ${spec.source.line}`}`;

export class RunChain {
  /** The files whose requests may be named, in the order they became known: a name is its first file's. */
  private readonly knownFiles: KnownFile[] = [];
  private readonly exchanges = new Map<string, Exchange>();
  /** Requests that ran, by file and position (the parsed spec and a copy of it are the same request). */
  private readonly done = new Map<string, Uint8Array>();
  /** The requests running, outermost first, for cycle detection (one send at a time). */
  private readonly sequence: string[] = [];
  /** The same per send, when several run at once (ChainHost.concurrent). */
  private readonly perSend: AsyncLocalStorage<readonly string[]> | undefined;
  private readonly files = new Set<string>();
  private readonly links: Links[] = [];
  private readonly referenced = new Set<string>();
  /** A `<@ file` that could not be read ahead may name any request: every named request's exchange is kept. */
  private referencesAny = false;
  /** The `{{word.` heads of the run's environment and profile values (`runTexts`): requests, if one has that name. */
  private readonly runHeads: ReadonlySet<string>;
  /** The requests each request's templates refer to, in order of appearance. */
  private readonly dependencies = new Map<string, string[]>();
  /** Values captured (`# @capture`) or set by scripts (`client.global.set`) in this run. */
  readonly variables = new Map<string, string>();
  /** Which of `variables` a script left as a number, a boolean, `null` or an object (`variables` holds their text). */
  readonly globalKinds = new Map<string, GlobalKind>();
  /** Functions httpyac scripts exported in this run (src/scripts/exported-functions.ts): made again in each later script or template that names one. */
  readonly functions = new Map<string, ExportedFunction>();
  /** `$global` arrays a httpyac script replaced by another (not pushed onto): a `# @loop` over one stops there (src/pipeline/loop-passes.ts). */
  readonly replacedArrays = new Set<string>();
  /** `client.global.headers.set(name, value)`: sent with every later request of the run. */
  readonly headers = new Map<string, string>();
  private worker: Promise<ScriptWorker> | undefined;
  /** Runs the file's patterns and JSONPaths (checks, captures, references) under the run's script time limit. */
  readonly bounded: BoundedRunner;
  /** Made by the first text a script prints. */
  private pieces: SecretPieces | undefined;

  /**
   * @param environment the `--env` environment's values, for `request.environment.get(name)`.
   * @param runTexts the run's texts beyond its files whose templates may read a request (`runTexts` in needs-chain.ts).
   */
  constructor(
    private readonly host: ChainHost,
    readonly environment: Readonly<Record<string, string>> = {},
    runTexts: readonly string[] = [],
  ) {
    if (host.concurrent === true) this.perSend = new AsyncLocalStorage();
    this.runHeads = templateHeads(runTexts);
    this.bounded = new BoundedRunner(host.scriptTimeoutMs);
  }

  private runningNow(): readonly string[] {
    return this.perSend ? (this.perSend.getStore() ?? []) : this.sequence;
  }

  /**
   * Makes a file's named requests known (for references and `# @ref`). Each request is built
   * once here and let go: what is kept is where each name is, and what the requests name.
   */
  addFile(requests: RequestFile, file: string): void {
    this.files.add(resolve(file));
    this.knownFiles.push({ requests, file });
    let sandbox = false;
    // Only the requests that may name another are built (again) here: a file's loader knows them.
    for (const index of requests.linked ?? Array.from({ length: requests.count }, (_, at) => at)) {
      const spec = requests.spec(index);
      sandbox ||= usesSandbox(spec);
      const name = requests.name(index);
      const included = includedTexts(spec, file);
      if (included.includes(undefined)) this.referencesAny = true;
      const heads = templateHeads([...templatesOf(spec), ...(included.filter((text) => text !== undefined) as string[])]);
      const refs = spec.chain?.refs?.map((ref) => ref.name) ?? [];
      if (heads.size > 0 || refs.length > 0) this.links.push({ location: locationOf(spec), name, heads: [...heads], refs });
    }
    if (sandbox) void this.sandboxes().then((worker) => worker.warm());
    // Again over every file's requests: a name just made known may be referred to by an earlier file.
    this.referenced.clear();
    this.dependencies.clear();
    for (const { location, name, heads, refs } of this.links) {
      const names = heads.filter((head) => head !== name && this.isRequest(head));
      if (names.length > 0) this.dependencies.set(location, names);
      for (const head of names) this.referenced.add(head);
      for (const ref of refs) this.referenced.add(ref);
    }
    for (const head of this.runHeads) if (this.isRequest(head)) this.referenced.add(head);
  }

  /** A flag per position, per file (a plugin's request without a position: by its line). */
  private markDone(spec: RequestSpec): void {
    const { file, index, line } = spec.source;
    const key = index === undefined ? `${file}#line` : file;
    const at = index ?? line;
    let flags = this.done.get(key) ?? new Uint8Array(64);
    if (at >= flags.length) {
      const grown = new Uint8Array(Math.max(at + 1, flags.length * 2));
      grown.set(flags);
      flags = grown;
    }
    flags[at] = 1;
    this.done.set(key, flags);
  }

  /** The request a name refers to, where it is: the first of that name in the first file that has one. */
  private target(name: string): { spec: RequestSpec; file: string } | undefined {
    for (const { requests, file } of this.knownFiles) {
      const index = requests.indexOf(name);
      if (index >= 0) return { spec: requests.spec(index), file };
    }
    return undefined;
  }

  /** Every name that may be referred to, once each (for an error's hint). */
  private knownNames(): string[] {
    const names = new Set<string>();
    for (const { requests } of this.knownFiles) for (let index = 0; index < requests.count; index++) names.add(requests.name(index));
    return [...names];
  }

  /**
   * Where the run's request-file scripts execute: a worker thread, started by the first script.
   * Its module loads with it, so a file without scripts never reads it.
   */
  /** `text` with pieces of the run's secrets masked (scripts/secret-pieces.ts): for what a script prints. */
  withoutSecretPieces(text: string): string {
    if (!this.host.secrets) return text;
    return (this.pieces ??= new SecretPieces(this.host.secrets)).mask(text);
  }

  sandboxes(): Promise<ScriptWorker> {
    return (this.worker ??= import('../scripts/script-worker.js').then(({ ScriptWorker }) => new ScriptWorker()));
  }

  isRequest(name: string): boolean {
    return this.knownFiles.some(({ requests }) => requests.indexOf(name) >= 0);
  }

  /**
   * Does every request pass the chain, whatever it says? When a script set `client.global.headers`
   * (sent with each), or a run value to `null` (a template alone that names it sends what httpyac sends: null-values.ts).
   */
  touchesEvery(): boolean {
    return this.headers.size > 0 || this.holdsNull();
  }

  /** Has a script set a run value to `null`? */
  holdsNull(): boolean {
    if (this.globalKinds.size > 0) for (const kind of this.globalKinds.values()) if (kind === 'null') return true;
    return false;
  }

  /** Must the request's exchange be kept (a later request refers to it) or checked? */
  wants(spec: RequestSpec): boolean {
    return spec.chain !== undefined || this.referencesAny || this.referenced.has(spec.name) || (spec.loopOf !== undefined && this.referenced.has(spec.loopOf)) || (this.dependencies.size > 0 && this.dependencies.has(locationOf(spec)));
  }

  /**
   * Runs the requests this one's templates refer to (those that have not run), before any
   * template is resolved: the order is the file's, not that of concurrent resolution.
   */
  async prepare(spec: RequestSpec): Promise<void> {
    if (this.dependencies.size === 0) return; // no template of the file names a request: no place to work out
    for (const name of this.dependencies.get(locationOf(spec)) ?? []) await this.ensure(name, false);
  }

  /** The value of `{{login.response.body.$.id}}`, running `login` first if needed; undefined when the expression names no request. */
  reference(expression: string): Promise<string> | undefined {
    const reference = parseReference(expression, (name) => this.isRequest(name));
    if (!reference) return undefined;
    return (async () => {
      await this.ensure(reference.name, false);
      const exchange = this.exchanges.get(reference.name);
      if (!exchange && this.host.dryRun === true) return `{{${expression}}}`;
      if (!exchange) throw new VariableError(`{{${expression}}}: request "${reference.name}" has no response to read`, { hint: 'it failed before its response came, or nothing was sent (--dry-run)', atRequest: true });
      return resolveReference(reference, exchange, this.bounded);
    })();
  }

  /**
   * Keeps the exchange of a request that others refer to (the others' bodies are not held). A
   * `# @loop` pass's is also the looped request's: a later pass replaces it, so its name reads the last.
   */
  record(exchange: Exchange, loopOf?: string): void {
    for (const name of [exchange.name, loopOf]) if (name !== undefined && (this.referencesAny || this.referenced.has(name))) this.exchanges.set(name, exchange);
  }

  /** Has this request run in this run (on its own turn or because another referred to it)? */
  ran(spec: RequestSpec): boolean {
    const { file, index, line } = spec.source;
    return this.done.get(index === undefined ? `${file}#line` : file)?.[index ?? line] === 1;
  }

  /** Runs a request of the loop: marked running (for cycles) and done. */
  async run(spec: RequestSpec, file: string): Promise<RequestOutcome> {
    try {
      if (this.perSend) return await this.perSend.run([...this.runningNow(), spec.name], () => this.host.run(spec, file));
      this.sequence.push(spec.name);
      try {
        return await this.host.run(spec, file);
      } finally {
        this.sequence.pop();
      }
    } finally {
      this.markDone(spec);
    }
  }

  /** `# @ref name`, or a reference to a request that has not run: run it now (a cycle is exit 2). `at`: the `file:line` that asks. */
  async ensure(name: string, force: boolean, at?: string): Promise<void> {
    const target = this.target(name);
    if (!target) throw new UsageError(`${at === undefined ? '' : `${at}: `}# @ref ${name}: no request is named "${name}"`, { hint: `requests: ${this.knownNames().join(', ')}` });
    const running = this.runningNow();
    if (running.includes(name)) {
      throw new UsageError(`request cycle: ${[...running.slice(running.indexOf(name)), name].join(' → ')}`, { hint: 'a request cannot depend on itself, directly or through others', atRequest: true });
    }
    if (!force && this.ran(target.spec)) return;
    const outcome = await this.run(target.spec, target.file);
    if (outcome.error) {
      throw new ReqflowError(`request "${name}", which this one depends on, failed: ${outcome.error.message}`, { exitCode: outcome.exitCode as ExitCodeValue });
    }
  }

  /** httpyac's `# @import ./other.http`: that file's named requests become known, to run only when referred to. */
  async importFile(path: string, fromFile: string): Promise<void> {
    const absolute = resolve(fromFile, '..', path);
    if (this.files.has(absolute)) return;
    // A file of `@variables` and helpers has no request to refer to: what it gives was taken when the file was read (src/pipeline/imported-variables.ts).
    const specs = await this.host.load(absolute).catch((error: unknown) => (error instanceof NoRequestsError ? [] : Promise.reject(error)));
    this.addFile(listedRequests(specs), absolute);
  }

  /** `# @depends ./other.http`: every request of that file runs first, once per run. `at`: where the annotation is written, for a file that cannot be read. */
  async depend(path: string, fromFile: string, at?: string): Promise<void> {
    const absolute = resolve(fromFile, '..', path);
    if (this.files.has(absolute)) return;
    // A syntax error names its own file and line; any other (missing, a pipe, a device) is said with the line that names the file.
    const named = (error: unknown): unknown => (at !== undefined && error instanceof UsageError && !(error instanceof ParseError) ? new UsageError(`${at}: # @depends ${path}: ${error.message}`, error.hint !== undefined ? { hint: error.hint } : {}) : error);
    const specs = await this.host.load(absolute).catch((error: unknown) => Promise.reject(named(error)));
    this.addFile(listedRequests(specs), absolute);
    for (const spec of specs) {
      if (this.ran(spec)) continue;
      const outcome = await this.run(spec, absolute);
      if (outcome.error) throw new ReqflowError(`${path}: request "${spec.name}", which this one depends on, failed: ${outcome.error.message}`, { exitCode: outcome.exitCode as ExitCodeValue });
    }
  }
}

