import { cloneJson } from '../core/json-exact.js';
import { dirname, resolve } from 'node:path';
import type { RunChain } from '../chain/chain.js';
import type { AbortHooks } from '../core/abort-hooks.js';
import type { CookieStore } from '../core/http/cookie-jar.js';
import type { ProxyRules } from '../core/http/proxy.js';
import type { ScriptGlobals } from '../core/script-globals.js';
import type { Environment } from '../core/environments.js';
import type { AgentPool } from '../core/http/agents.js';
import { sendHttp } from '../core/http/send.js';
import { displayUrl, type SecretRegistry } from '../core/mask.js';
import type { HttpRequest, OutputSink, Profile, RequestSpec, ResponseInfo, RunOptions, Session, VariableResolver } from '../core/model.js';
import type { Prompter } from '../core/prompt.js';
import { readWholeBody } from '../core/read-body.js';
import type { ConnectionPhases, OutgoingRequest } from '../core/http/outgoing-request.js';
import { requestSettings } from '../core/request-settings.js';
import { isCredentialHeader } from '../core/request-secrets.js';
import { shownPath } from '../core/resolve-path.js';
import { CHAIN_CAPTURE_LIMIT } from '../core/token-extraction.js';
import type { PluginRegistry } from '../core/registry.js';
import { type JavascriptResult, type ResolverOptions, TemplateResolver } from '../core/variables.js';
import type { ScriptWorker } from '../scripts/script-worker.js';
import type { ReportFeed } from '../report/reporter.js';
import { HISTORY_BODY_LIMIT } from '../history/entry.js';
import type { HistoryLog } from '../history/log.js';
import type { RequestContext } from './context.js';
import { warningLine } from '../report/render/visible.js';

/** Everything a run shares across its requests. The CLI and the TUI each build one. */
export interface RunServices {
  registry: PluginRegistry;
  options: RunOptions;
  profile: Profile;
  profilesPath?: string;
  /** The profiles file was named (`--profiles`), not found beside the request file: the user's own, its `$(…)` values run untrusted. */
  profilesChosen?: boolean;
  session: Session;
  output: OutputSink;
  /** Where responses go: the run's reporter behind the one place that filters. */
  report: ReportFeed;
  prompter: Prompter;
  /** Interactive answers, asked once per run. */
  promptCache: Map<string, string>;
  secrets: SecretRegistry;
  agents: AgentPool;
  signal: AbortSignal;
  /** The run's abort listeners, one real listener on `signal` (see abort-hooks.ts). */
  abort: AbortHooks;
  /** `--env NAME`: the environment's variables. */
  environment?: Environment;
  /** Named responses and captured values, when the run chains requests (`src/chain/`). */
  chain?: RunChain;
  /** Script globals kept from earlier files and runs (`client.global.set`), when the session holds some or a script runs. */
  globals?: ScriptGlobals;
  /** The profile's cookie jar (absent with `--no-cookies`). */
  cookies?: CookieStore;
  /** Where the `history` hook keeps the run's requests (absent when the history is off: `openHistory`). */
  history?: HistoryLog;
  /** Told the phases of each HTTP/1.1 exchange (DNS, connect, TLS, first byte): the TUI sets it; a plain run measures nothing. */
  onPhases?: (phases: ConnectionPhases) => void;
  /** Which proxy each request goes through (`--proxy`, the `*_proxy` environment, `no_proxy`). */
  proxy?: ProxyRules;
  /** Scratch space shared by every request of the run, keyed by plugin name (`ctx.runState`). */
  runState: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  /** Each request file's absolute path and folder, worked out by its first request (`createContext`). */
  places?: Map<string, { absolute: string; baseDir: string }>;
  /** The context's helpers that need only the run, made by its first request (`createContext`). */
  helpers?: RunHelpers;
}

/** What a request's context offers that depends on the run alone: one set per run, not four closures per request. */
type RunHelpers = Required<Pick<RequestContext, 'warn' | 'addSecret' | 'confirm' | 'redact'>>;

function helpersOf(services: RunServices): RunHelpers {
  return (services.helpers ??= {
    warn: (message) => services.output.err(warningLine(services.secrets.scrub(message))),
    addSecret: (value) => services.secrets.add(value),
    confirm: async (question) => /^\s*y(es)?\s*$/i.test(await services.prompter({ name: question, defaultValue: '', secret: false })),
    redact: (text) => services.secrets.scrub(text),
  });
}

/**
 * The request's own copy of its spec (plugins change headers, URL and body freely; the parsed
 * file stays as written for the next run of it). Field by field: structuredClone of the whole
 * spec was the largest cost of a request in a batch.
 */
function ownCopy(spec: RequestSpec): RequestSpec {
  const copy: RequestSpec = { ...spec, headers: { ...spec.headers }, annotations: { ...spec.annotations }, source: { ...spec.source } };
  if (spec.tls) copy.tls = { ...spec.tls };
  if (spec.graphqlVariables) copy.graphqlVariables = cloneJson(spec.graphqlVariables);
  return copy;
}

/** `ctx.http.send`: the request with the run's settings, through `sendHttp` (and `--retry`'s back-off when asked). */
function sendRequest(request: HttpRequest, ctx: RequestContext, services: RunServices): Promise<ResponseInfo> {
  const { options } = services;
  const settings = requestSettings(ctx.spec, options, ctx.profile); // # @timeout, # @no-redirect, # @retry, HTTP/2, ...
  const outgoing: OutgoingRequest = {
    method: request.method,
    url: request.url,
    headers: request.headers,
    authorization: request.authorization, // digest: an answer per hop
    tls: request.tlsOptions ?? ctx.tlsOptions,
    ...settings,
    abort: services.abort,
    isSecretHeader: (name, value) => isCredentialHeader(name, value, ctx.credentialHeaders, services.secrets),
    onRedirect: (to, dropped) => {
      if (!options.verbose) return;
      const what = dropped.length > 0 ? `; not sent there (another origin): ${dropped.join(', ')}` : '';
      services.output.err(`reqflow: redirected to ${displayUrl(to.href, (text) => services.secrets.scrub(text))}${what}`);
    },
    keepAliveAfterHeaders: request.streaming === true,
    onResend: (url, what) => {
      if (options.verbose) services.output.err(`reqflow: ${url.origin} ${what}: sent again on a new connection`);
    },
    onProtocol: (url) => {
      if (options.verbose) services.output.err(`reqflow: ${url.origin} refused HTTP/1.1 and speaks HTTP/2: sent over HTTP/2`);
    },
  };
  if (request.body !== undefined) outgoing.body = request.body;
  if (ctx.spec.asteriskForm) outgoing.asteriskForm = true; // `OPTIONS *`
  if (services.chain?.wants(ctx.spec) === true) outgoing.recordLimit = CHAIN_CAPTURE_LIMIT;
  if (services.history) outgoing.recordHead = HISTORY_BODY_LIMIT;
  if (services.onPhases) outgoing.onPhases = services.onPhases;
  const proxy = ctx.proxy ?? services.proxy; // a request's `# @proxy` / `# @noProxy` wins over the run's
  if (proxy) {
    outgoing.proxy = proxy;
    outgoing.onProxy = (proxy, target) => {
      if (options.verbose) services.output.err(`reqflow: ${target.origin} through the proxy ${displayUrl(proxy.href, (text) => services.secrets.scrub(text))}`);
    };
  }
  // `# @no-cookie-jar` (JetBrains): this request neither sends nor keeps cookies.
  if (services.cookies && ctx.spec.annotations['no-cookie-jar'] === undefined) outgoing.cookies = services.cookies;
  const retries = settings.retry;
  if (retries === undefined) return sendHttp(outgoing, services.agents);
  const onRetry = (attempt: number, of: number, reason: string, waitMs: number): void => {
    if (options.verbose) services.output.err(`reqflow: ${reason}: retry ${attempt} of ${of} in ${waitMs} ms`);
  };
  // Only --retry and # @retry need the back-off: imported here, off the plain path.
  return import('../core/http/retry.js').then(({ withRetries }) => withRetries(request.method, { retries, all: options.retryAll === true, onRetry }, services.abort, () => sendHttp(outgoing, services.agents)));
}

/** A request file's absolute path and its folder. */
interface Place {
  absolute: string;
  baseDir: string;
}

/** Where a request file is: resolved once per file of a run, not per request (a batch pays for every path.resolve). */
function placeOf(file: string, services: RunServices): Place {
  const places = (services.places ??= new Map());
  let place = places.get(file);
  if (!place) {
    const absolute = resolve(file);
    place = { absolute, baseDir: dirname(absolute) };
    places.set(file, place);
  }
  return place;
}

/**
 * httpyac's JavaScript in a template, in the run's script worker (the chain's; a run without one
 * starts its own on the first such template). The evaluator loads only then; the resolver names
 * where a failing template is written (`writtenAt`), as it does for an unknown variable.
 */
async function templateJavascript(expression: string, read: (names: readonly string[]) => Promise<Record<string, string>>, services: RunServices): Promise<JavascriptResult> {
  const { chain, globals, secrets, runState } = services;
  const [{ evaluateTemplate }, { SCRIPT_TIMEOUT_MS }] = await Promise.all([import('../scripts/template-expression.js'), import('../scripts/run-scripts.js')]);
  const own = (): Promise<ScriptWorker> => (runState[TEMPLATE_WORKER] ??= import('../scripts/script-worker.js').then(({ ScriptWorker }) => new ScriptWorker())) as Promise<ScriptWorker>;
  return evaluateTemplate(expression, {
    read,
    globals: Object.fromEntries([...(globals?.entries() ?? []), ...(chain?.variables ?? [])]),
    globalKinds: Object.fromEntries(chain?.globalKinds ?? []),
    functions: chain?.functions,
    carriesSecret: (text) => secrets.carries(text),
    addSecret: (value) => secrets.add(value),
    timeoutMs: services.options.scriptTimeoutMs ?? SCRIPT_TIMEOUT_MS,
    sandboxes: () => (chain ? chain.sandboxes() : own()),
  });
}

/**
 * `file:line` where `{{ expression }}` is written for this request (its block, or a file variable
 * above it), for an error in it; undefined where that cannot be told. Loaded on an error's path only.
 */
async function writtenAt(spec: RequestSpec, file: string, expression: string): Promise<string | undefined> {
  const line = await (await import('../plugins/format-http/template-line.js')).templateLine(file, spec.source.line, expression);
  // The file as the user sees it: relative to the working folder when inside it.
  return line === undefined ? undefined : `${shownPath(spec.source.file)}:${line}`;
}

/** A profile value's `$(…)` from a profiles file a project brings: exit 2 unless the project is trusted (loaded then). */
async function profileProgram(services: RunServices, name: string, profilesPath: string): Promise<void> {
  const { requireTrust } = await import('../trust/require-trust.js');
  const project = services.session.project ?? dirname(profilesPath);
  await requireTrust({ flag: services.options.trust === true, project, file: profilesPath, ...(services.env ? { env: services.env } : {}) }, shownPath(profilesPath), `profile variable "${name}" is $(…): it`);
}

/** `runState` key of the script worker of a run without a chain. */
const TEMPLATE_WORKER = 'template-javascript';

/** The request's template resolver: built by the first template (a request without one never needs it). */
function resolverFor(spec: RequestSpec, { absolute, baseDir }: Place, services: RunServices, requestVariables: Map<string, string> | undefined): TemplateResolver {
  const { chain, environment } = services;
  const options: ResolverOptions = {
    cliVariables: services.options.cliVariables,
    loopVariables: spec.loopVariables,
    requestLine: `${spec.source.file}:${spec.source.line}`,
    session: services.session,
    profile: services.profile,
    prompter: services.prompter,
    promptCache: services.promptCache,
    secrets: services.secrets,
    signal: services.signal,
    requestName: spec.name,
    baseDir,
  };
  if (chain && requestVariables) {
    options.runVariable = (name) => requestVariables.get(name) ?? chain.variables.get(name);
    options.reference = (expression) => chain.reference(expression);
  }
  if (services.globals) options.globals = services.globals;
  options.javascript = (expression, read) => templateJavascript(expression, read, services);
  options.writtenAt = (expression) => writtenAt(spec, absolute, expression);
  options.laterFileVariable = async (name) => (await import('../plugins/format-http/later-variables.js')).laterFileVariable(absolute, name, services.runState);
  if (spec.fileVariables) options.fileVariables = spec.fileVariables;
  if (spec.prompts) options.prompts = spec.prompts;
  if (environment) {
    options.environmentVariables = environment.variables;
    if (environment.name !== undefined) options.environmentName = environment.name;
    options.environmentUnusable = environment.unusable;
  }
  if (services.profilesPath) {
    options.profilesPath = services.profilesPath;
    // A profiles file the search found is the project's: its programs run only in a trusted project.
    if (services.profilesChosen !== true) options.profileProgram = (name) => profileProgram(services, name, services.profilesPath as string);
  }
  if (services.env) options.env = services.env;
  return new TemplateResolver(options);
}

/**
 * A request's variables: its TemplateResolver is built by the first use — most requests of a
 * batch have no template. (A class, not a getter on the context: an object literal with a
 * getter is a dictionary-mode object, three times the size of the context.)
 */
class RequestVariables implements VariableResolver {
  private resolver: TemplateResolver | undefined;
  constructor(private readonly build: () => TemplateResolver) {}
  private now(): TemplateResolver {
    return (this.resolver ??= this.build());
  }
  get(name: string): Promise<string> {
    return this.now().get(name);
  }
  has(name: string): boolean {
    return this.now().has(name);
  }
  expand(text: string): Promise<string> {
    return this.now().expand(text);
  }
  sourceOf(name: string): ReturnType<VariableResolver['sourceOf']> {
    return this.now().sourceOf(name);
  }
}

/** The context one request carries through the stages (see context.ts for what each stage sees). */
export function createContext(spec: RequestSpec, file: string, services: RunServices): RequestContext {
  const { options, chain } = services;
  const place = placeOf(file, services);
  const { absolute, baseDir } = place;
  const requestVariables = chain ? new Map<string, string>() : undefined;
  const { warn, addSecret, confirm, redact } = helpersOf(services);
  const ctx: RequestContext = {
    spec: ownCopy(spec),
    file: absolute,
    baseDir,
    profile: services.profile,
    session: services.session,
    options,
    variables: new RequestVariables(() => resolverFor(spec, place, services, requestVariables)),
    output: services.output,
    report: services.report,
    tls: {},
    tlsOptions: {},
    state: {},
    runState: services.runState,
    signal: services.signal,
    warn,
    addSecret,
    confirm,
    redact,
    readBody: () => (ctx.response ? readWholeBody(ctx.response, options.maxSizeBytes) : Promise.resolve(Buffer.alloc(0))),
    http: {
      send: (request) => sendRequest(request, ctx, services),
      proxyAgent: (address) => {
        // ws:// and wss:// follow the proxy rules of http:// and https://.
        const url = new URL(address.replace(/^ws(s?):/i, 'http$1:'));
        const proxy = (ctx.proxy ?? services.proxy)?.forUrl(url);
        if (!proxy) return undefined;
        if (options.verbose) services.output.err(`reqflow: ${url.origin} through the proxy ${displayUrl(proxy.href, (text) => services.secrets.scrub(text))}`);
        return services.agents.tunnelFor(url, ctx.tlsOptions, proxy);
      },
    },
  };
  // Set only when present: a plugin may ask `'chain' in ctx`.
  const optional = ctx as { chain?: RunChain; requestVariables?: Map<string, string>; globals?: ScriptGlobals; history?: HistoryLog };
  if (chain) {
    optional.chain = chain;
    optional.requestVariables = requestVariables;
    if (services.globals) optional.globals = services.globals;
  }
  if (services.history) optional.history = services.history;
  return ctx;
}
