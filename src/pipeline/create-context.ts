import { dirname, resolve } from 'node:path';
import type { RunChain } from '../chain/chain.js';
import type { AbortHooks } from '../core/abort-hooks.js';
import type { CookieStore } from '../core/http/cookie-jar.js';
import type { ProxyRules } from '../core/http/proxy.js';
import type { ScriptGlobals } from '../core/script-globals.js';
import type { Environment } from '../core/environments.js';
import type { AgentPool } from '../core/http/agents.js';
import { sendHttp } from '../core/http/send.js';
import { displayUrl, isSecretName, type SecretRegistry } from '../core/mask.js';
import type { OutputSink, Profile, RequestSpec, ResponseInfo, RunOptions, Session } from '../core/model.js';
import type { Prompter } from '../core/prompt.js';
import { readWholeBody } from '../core/read-body.js';
import type { ConnectionPhases } from '../core/http/outgoing-request.js';
import { requestSettings } from '../core/request-settings.js';
import { CHAIN_CAPTURE_LIMIT } from '../core/token-extraction.js';
import type { PluginRegistry } from '../core/registry.js';
import { TemplateResolver } from '../core/variables.js';
import type { ReportFeed } from '../report/reporter.js';
import { HISTORY_BODY_LIMIT } from '../history/entry.js';
import type { HistoryLog } from '../history/log.js';
import type { RequestContext } from './context.js';
import { visible } from '../report/render/visible.js';

/** Everything a run shares across its requests. The CLI and the TUI each build one. */
export interface RunServices {
  registry: PluginRegistry;
  options: RunOptions;
  profile: Profile;
  profilesPath?: string;
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
}

/**
 * The request's own copy of its spec (plugins change headers, URL and body freely; the parsed
 * file stays as written for the next run of it). Field by field: structuredClone of the whole
 * spec was the largest cost of a request in a batch.
 */
function ownCopy(spec: RequestSpec): RequestSpec {
  const copy: RequestSpec = { ...spec, headers: { ...spec.headers }, annotations: { ...spec.annotations }, source: { ...spec.source } };
  if (spec.tls) copy.tls = { ...spec.tls };
  if (spec.graphqlVariables) copy.graphqlVariables = structuredClone(spec.graphqlVariables);
  return copy;
}

/** The context one request carries through the stages (see context.ts for what each stage sees). */
export function createContext(spec: RequestSpec, file: string, services: RunServices): RequestContext {
  const { options, chain } = services;
  const absolute = resolve(file); // once: a batch pays for every path.resolve, per request
  const baseDir = dirname(absolute);
  const requestVariables = chain ? new Map<string, string>() : undefined;
  const variables = new TemplateResolver({
    ...(chain && requestVariables
      ? { runVariable: (name: string) => requestVariables.get(name) ?? chain.variables.get(name), reference: (expression: string) => chain.reference(expression) }
      : {}),
    cliVariables: options.cliVariables,
    globals: services.globals,
    ...(spec.fileVariables ? { fileVariables: spec.fileVariables } : {}),
    loopVariables: spec.loopVariables,
    ...(spec.prompts ? { prompts: spec.prompts } : {}),
    ...(services.environment ? { environmentVariables: services.environment.variables } : {}),
    ...(services.environment?.name !== undefined ? { environmentName: services.environment.name } : {}),
    ...(services.environment ? { environmentUnusable: services.environment.unusable } : {}),
    requestLine: `${spec.source.file}:${spec.source.line}`,
    session: services.session,
    profile: services.profile,
    prompter: services.prompter,
    promptCache: services.promptCache,
    secrets: services.secrets,
    signal: services.signal,
    requestName: spec.name,
    baseDir,
    ...(services.profilesPath ? { profilesPath: services.profilesPath } : {}),
    ...(services.env ? { env: services.env } : {}),
  });
  const ctx: RequestContext = {
    spec: ownCopy(spec),
    file: absolute,
    baseDir,
    profile: services.profile,
    session: services.session,
    options,
    variables,
    output: services.output,
    report: services.report,
    tls: {},
    tlsOptions: {},
    state: {},
    runState: services.runState,
    ...(chain ? { chain, requestVariables, globals: services.globals } : {}),
    ...(services.history ? { history: services.history } : {}),
    signal: services.signal,
    warn: (message) => services.output.err(`reqflow: warning: ${visible(services.secrets.scrub(message))}`),
    addSecret: (value) => services.secrets.add(value),
    confirm: async (question) => /^\s*y(es)?\s*$/i.test(await services.prompter({ name: question, defaultValue: '', secret: false })),
    redact: (text) => services.secrets.scrub(text),
    readBody: () => (ctx.response ? readWholeBody(ctx.response, options.maxSizeBytes) : Promise.resolve(Buffer.alloc(0))),
    http: {
      send: (request) => {
        const settings = requestSettings(ctx.spec, options, ctx.profile); // # @timeout, # @no-redirect, # @retry, HTTP/2, ...
        const send = (): Promise<ResponseInfo> =>
          sendHttp(
          {
            method: request.method,
            url: request.url,
            asteriskForm: ctx.spec.asteriskForm,
            headers: request.headers,
            ...(request.body !== undefined ? { body: request.body } : {}),
            tls: request.tlsOptions ?? ctx.tlsOptions,
            ...settings,
            abort: services.abort,
            isSecretHeader: (name, value) => isSecretName(name) || services.secrets.carries(value),
            onRedirect: (to, dropped) => {
              if (!options.verbose) return;
              const what = dropped.length > 0 ? `; not sent there (another origin): ${dropped.join(', ')}` : '';
              services.output.err(`reqflow: redirected to ${displayUrl(to.href, (text) => services.secrets.scrub(text))}${what}`);
            },
            keepAliveAfterHeaders: request.streaming === true,
            onProtocol: (url) => {
              if (options.verbose) services.output.err(`reqflow: ${url.origin} refused HTTP/1.1 and speaks HTTP/2: sent over HTTP/2`);
            },
            ...(chain?.wants(ctx.spec) === true ? { recordLimit: CHAIN_CAPTURE_LIMIT } : {}),
            ...(services.history ? { recordHead: HISTORY_BODY_LIMIT } : {}),
            ...(services.onPhases ? { onPhases: services.onPhases } : {}),
            ...(services.proxy
              ? {
                  proxy: services.proxy,
                  onProxy: (proxy: URL, target: URL) => {
                    if (options.verbose) services.output.err(`reqflow: ${target.origin} through the proxy ${displayUrl(proxy.href, (text) => services.secrets.scrub(text))}`);
                  },
                }
              : {}),
            // `# @no-cookie-jar` (JetBrains): this request neither sends nor keeps cookies.
            ...(services.cookies && ctx.spec.annotations['no-cookie-jar'] === undefined ? { cookies: services.cookies } : {}),
          },
          services.agents,
        );
        const retries = settings.retry;
        if (retries === undefined) return send();
        const onRetry = (attempt: number, of: number, reason: string, waitMs: number): void => {
          if (options.verbose) services.output.err(`reqflow: ${reason}: retry ${attempt} of ${of} in ${waitMs} ms`);
        };
        // Only --retry and # @retry need the back-off: imported here, off the plain path.
        return import('../core/http/retry.js').then(({ withRetries }) => withRetries(request.method, { retries, all: options.retryAll === true, onRetry }, services.abort, send));
      },
      proxyAgent: (address) => {
        // ws:// and wss:// follow the proxy rules of http:// and https://.
        const url = new URL(address.replace(/^ws(s?):/i, 'http$1:'));
        const proxy = services.proxy?.forUrl(url);
        if (!proxy) return undefined;
        if (options.verbose) services.output.err(`reqflow: ${url.origin} through the proxy ${displayUrl(proxy.href, (text) => services.secrets.scrub(text))}`);
        return services.agents.tunnelFor(url, ctx.tlsOptions, proxy);
      },
    },
  };
  return ctx;
}
