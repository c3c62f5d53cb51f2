import { readFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { ExitCode, ParseError, PluginError, ReqflowError, UsageError, internalError, isReqflowError } from './errors/index.js';
import type { AgentPool } from './http/agents.js';
import { sendHttp } from './http/send.js';
import type { SecretRegistry } from './mask.js';
import { REQUEST_STAGES, type OutputSink, type ParseContext, type Profile, type RequestContext, type RequestSpec, type RunOptions, type Session } from './pipeline.js';
import type { Prompter } from './prompt.js';
import { readWholeBody } from './read-body.js';
import type { PluginEntry, PluginRegistry } from './registry.js';
import { captureBody, extractToken, wantsExtraction } from './token-extraction.js';
import { TemplateResolver } from './variables.js';
import { validateFilter } from './filter.js';

/** Everything a run shares across its requests. The CLI and the TUI each build one. */
export interface RunServices {
  registry: PluginRegistry;
  options: RunOptions;
  profile: Profile;
  profilesPath?: string;
  session: Session;
  output: OutputSink;
  prompter: Prompter;
  /** Interactive answers, asked once per run. */
  promptCache: Map<string, string>;
  secrets: SecretRegistry;
  agents: AgentPool;
  signal: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

export interface RequestOutcome {
  spec: RequestSpec;
  ctx?: RequestContext;
  error?: ReqflowError;
  /** 0, 1 for a response ≥ 400 or GraphQL errors, or the error's exit code. */
  exitCode: number;
}

const FORMAT_BY_EXTENSION: Record<string, string> = { http: 'http', rest: 'http', yaml: 'yaml', yml: 'yaml', json: 'json' };

/** Reads and parses a request file with the format plugin of its extension (unknown ones: HTTP text). */
export async function parseRequestFile(file: string, registry: PluginRegistry): Promise<RequestSpec[]> {
  const path = resolve(file);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path); // sync: fs/promises alone costs ms of every start-up
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : String(code ?? error);
    throw new UsageError(`cannot read request file ${file}: ${why}`);
  }
  const text = decodeRequestFile(bytes, file);
  const raw = extname(path).slice(1).toLowerCase();
  const extension = FORMAT_BY_EXTENSION[raw] || registry.claimsExtension(raw) ? raw : 'http';
  const ctx: ParseContext = { file, text, extension, requests: [] };
  for (const entry of registry.parsersFor(extension)) {
    const plugin = await registry.load(entry);
    const handler = plugin.stages.parse;
    if (!handler) continue;
    await callHandler(entry, 'parse', () => handler(ctx));
    if (ctx.requests.length > 0) break;
  }
  if (ctx.requests.length === 0) throw new UsageError(`${file}: no requests found`, { hint: 'write at least one request line, e.g. GET https://example.com' });
  return ctx.requests;
}

/**
 * Request files are UTF-8. Anything else is refused with the position of the first bad byte,
 * rather than sent with U+FFFD in place of the user's characters.
 */
function decodeRequestFile(bytes: Buffer, file: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const lossy = bytes.toString('utf8');
    const at = Math.max(lossy.indexOf('\uFFFD'), 0);
    const before = lossy.slice(0, at);
    const line = before.split('\n').length;
    const binary = bytes.includes(0);
    throw new ParseError(file, line, at - before.lastIndexOf('\n'), binary ? 'not a text file (it contains NUL bytes)' : 'not valid UTF-8 text', {
      hint: binary ? 'is this the right file? request files are UTF-8 text' : 'request files are UTF-8 text; convert it, e.g. iconv -f latin1 -t utf-8 FILE',
    });
  }
}

/** `-n NAME` (repeatable) picks requests; an unknown name is exit 2 listing the names. */
export function selectRequests(specs: RequestSpec[], names: readonly string[]): RequestSpec[] {
  if (names.length === 0) return specs;
  for (const name of names) {
    if (!specs.some((spec) => spec.name === name)) {
      throw new UsageError(`no request named "${name}"`, { hint: `requests in this file: ${specs.map((s) => s.name).join(', ')}` });
    }
  }
  return specs.filter((spec) => names.includes(spec.name));
}

/** Every filter is compiled before anything is sent. */
export async function validateFilters(specs: readonly RequestSpec[], options: RunOptions): Promise<void> {
  if (options.filter !== undefined) await validateFilter(options.filter, ' (--filter)');
  for (const spec of specs) {
    const filter = spec.annotations.filter;
    if (filter !== undefined && options.filter === undefined) await validateFilter(filter, ` in request "${spec.name}" (${spec.source.file}:${spec.source.line})`);
  }
}

async function callHandler<T>(entry: PluginEntry, stage: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isReqflowError(error)) throw error;
    if (entry.builtin) throw internalError(error, `in ${entry.name} (${stage} stage)`);
    throw new PluginError(entry.name, stage, error);
  }
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

export function createContext(spec: RequestSpec, file: string, services: RunServices): RequestContext {
  const { options } = services;
  const variables = new TemplateResolver({
    cliVariables: options.cliVariables,
    session: services.session,
    profile: services.profile,
    prompter: services.prompter,
    promptCache: services.promptCache,
    secrets: services.secrets,
    signal: services.signal,
    requestName: spec.name,
    ...(services.profilesPath ? { profilesPath: services.profilesPath } : {}),
    ...(services.env ? { env: services.env } : {}),
  });
  const ctx: RequestContext = {
    spec: ownCopy(spec),
    file: resolve(file),
    baseDir: dirname(resolve(file)),
    profile: services.profile,
    session: services.session,
    options,
    variables,
    output: services.output,
    tls: {},
    tlsOptions: {},
    state: {},
    signal: services.signal,
    warn: (message) => services.output.err(`reqflow: warning: ${services.secrets.scrub(message)}`),
    addSecret: (value) => services.secrets.add(value),
    redact: (text) => services.secrets.scrub(text),
    readBody: () => (ctx.response ? readWholeBody(ctx.response, options.maxSizeBytes) : Promise.resolve(Buffer.alloc(0))),
    http: {
      send: (request) =>
        sendHttp(
          {
            method: request.method,
            url: request.url,
            headers: request.headers,
            ...(request.body !== undefined ? { body: request.body } : {}),
            tls: request.tlsOptions ?? ctx.tlsOptions,
            timeoutMs: options.timeoutMs,
            followRedirects: options.followRedirects,
            signal: services.signal,
            keepAliveAfterHeaders: request.streaming === true,
          },
          services.agents,
        ),
    },
  };
  return ctx;
}

/** Runs the five request stages for one request and extracts the token. Errors are returned, not thrown. */
export async function executeRequest(spec: RequestSpec, file: string, services: RunServices): Promise<RequestOutcome> {
  const ctx = createContext(spec, file, services);
  const { registry } = services;
  try {
    registry.checkAuthAvailable(ctx);
    let extractFrom: (() => Buffer | undefined) | undefined;
    for (const stage of REQUEST_STAGES) {
      if (stage === 'render' && ctx.response && services.options.extract && wantsExtraction(ctx.response)) extractFrom = captureBody(ctx.response);
      for (const entry of registry.ordered(stage)) {
        if (stage === 'send' && ctx.response) break;
        if (!registry.applies(entry, ctx, stage)) continue;
        const plugin = registry.loadedPlugin(entry) ?? (await registry.load(entry));
        const handler = plugin.stages[stage];
        if (!handler) continue;
        await callHandler(entry, stage, () => handler(ctx));
      }
      if (stage === 'auth') for (const [name, value] of Object.entries(ctx.spec.headers)) services.secrets.addHeaderValue(name, value);
    }
    const response = ctx.response;
    if (!response) throw new ReqflowError(`no plugin sent request "${spec.name}"`, { exitCode: ExitCode.internal });
    if (response.stream && !response.stream.readableEnded) response.stream.resume(); // free the socket for the next request
    if (extractFrom) extractToken(extractFrom(), services.session);
    await services.session.save();
    const failed = response.status >= 400 || ctx.failed === true;
    return { spec, ctx, exitCode: failed ? ExitCode.httpFailure : ExitCode.ok };
  } catch (error) {
    ctx.response?.stream?.destroy();
    await services.session.save().catch(() => undefined);
    const reqflowError = isReqflowError(error) ? error : internalError(error);
    return { spec, ctx, error: reqflowError, exitCode: reqflowError.exitCode };
  }
}

/**
 * The exit code of a run: the first error's code (network, TLS, variable, ...) if any request
 * failed that way, else 1 if any response failed, else 0.
 */
export function combinedExitCode(outcomes: readonly RequestOutcome[]): number {
  const errored = outcomes.find((o) => o.error);
  if (errored) return errored.exitCode;
  return outcomes.some((o) => o.exitCode !== 0) ? ExitCode.httpFailure : ExitCode.ok;
}
