/**
 * The chaining plugin. In `substitute` (before the core resolves templates): the files of
 * `# @depends` and the requests of `# @ref` run first, `client.global.headers` are added, and
 * pre-request scripts run. In `capture` (after the response is shown): the exchange is kept
 * for later references, then response handlers, `# @capture`, `??` assertions and restcli's
 * expectations run, in that order; their results go to `ctx.tests`.
 */
import { UsageError } from '../core/errors/index.js';
import { fieldLines, getHeader, getHeaderLines, setHeader } from '../core/headers.js';
import { isSecretName } from '../core/mask.js';
import { shownPath } from '../core/resolve-path.js';
import type { RequestSpec, ScriptSpec, TestResult } from '../core/model.js';
import type { CaptureContext, RequestContext } from '../pipeline/context.js';
import type { Plugin } from '../pipeline/plugin.js';
import { visible, warningLine } from '../report/render/visible.js';
import type { ScriptData } from '../scripts/jetbrains-api.js';
import { evaluateExpression, runScripts, SCRIPT_TIMEOUT_MS, type ScriptHost } from '../scripts/run-scripts.js';
import { evaluateAssertion, evaluateExpectations } from './assertions.js';
import { captureValue } from './captures.js';
import { type RunChain, usesSandbox } from './chain.js';
import { contentTypeOf, type Exchange, exchangeOf, isJsonType, responseText } from './exchange.js';

interface ChainState {
  /** The request as written (before templates were resolved), for `request.*.getRaw()`: kept only for a request that runs code in the sandbox. */
  raw?: Pick<RequestSpec, 'url' | 'headers' | 'body'>;
  startedAt: number;
}

const STATE = 'chain';

/** `runState` key: the run said that a trust given to an earlier folder at the project's path does not apply. */
const EARLIER_TRUST_SAID = 'chain:earlier-trust-said';

function chainOf(ctx: RequestContext): RunChain {
  if (!ctx.chain) throw new UsageError('chaining needs a run (internal)');
  return ctx.chain;
}

/**
 * The error that stops a request over its scripts — one that failed, a hook's change reqflow
 * cannot send — where every such message is made: it quotes what a script supplied (its error, a
 * name it set), so pieces of secrets are masked in it as in the script's output.
 */
export function scriptStopped(ctx: RequestContext, message: string): UsageError {
  const redacted = ctx.redact(message);
  return new UsageError(ctx.chain ? ctx.chain.withoutSecretPieces(redacted) : redacted, { hint: 'the request was not sent' });
}

export function scriptHost(ctx: RequestContext, chain: RunChain): ScriptHost {
  return {
    globals: chain.variables,
    globalKinds: chain.globalKinds,
    functions: chain.functions,
    ...(ctx.globals ? { stored: ctx.globals } : {}),
    headers: chain.headers,
    requestVariables: ctx.requestVariables ?? new Map(),
    environment: (name) => (Object.hasOwn(chain.environment, name) ? chain.environment[name] : undefined),
    resolve: async (names) => {
      const values = Object.create(null) as Record<string, string>;
      for (const name of names) if (ctx.variables.has(name)) values[name] = await ctx.variables.get(name);
      return values;
    },
    log: (text) => ctx.output.err(`reqflow: log: ${visible(text)}`),
    shown: (text) => chain.withoutSecretPieces(ctx.redact(text)),
    addSecret: (value) => ctx.addSecret?.(value),
    arrayReplaced: (name) => chain.replacedArrays.add(name),
    file: ctx.file,
    timeoutMs: ctx.options.scriptTimeoutMs ?? SCRIPT_TIMEOUT_MS,
    sandboxes: () => chain.sandboxes(),
    trusted: async () => {
      const [{ earlierFolderWords, trustStateOf }, { trustScopeOf }] = await Promise.all([import('../trust/require-trust.js'), import('../trust/scope-of.js')]);
      const scope = trustScopeOf(ctx);
      const state = await trustStateOf(scope);
      // The script's own error says `require` needs trust; why the trust given there does not apply is said once a run.
      if (state === 'earlier' && ctx.runState[EARLIER_TRUST_SAID] === undefined) {
        ctx.runState[EARLIER_TRUST_SAID] = true;
        ctx.output.err(warningLine(earlierFolderWords(scope.project)));
      }
      return state === 'trusted';
    },
  };
}

function bodyText(body: string | Buffer | undefined): string | null {
  if (body === undefined) return null;
  return typeof body === 'string' ? body : body.toString('utf8');
}

export function scriptData(raw: NonNullable<ChainState['raw']>, sent: RequestSpec, exchange?: Exchange): ScriptData {
  // One entry per line sent: a header written twice is two entries, as in the file.
  const headers = Object.entries(sent.headers).flatMap(([name, value]) => {
    const written = getHeaderLines(raw.headers, name);
    return fieldLines(value).map((line, i): [string, string, string] => [name, written[i] ?? line, line]);
  });
  const data: ScriptData = {
    // A large file sent as it is read: its text read again for the script, as it was sent (refused if it changed since).
    request: { method: sent.method, url: raw.url, urlResolved: sent.url, body: bodyText(raw.body), bodyResolved: sent.bodyFile?.stillBodyOf(sent)?.text() ?? bodyText(sent.body), headers },
    response: null,
  };
  if (exchange) {
    const body = responseText(exchange.response);
    let json = false;
    if (isJsonType(exchange.response.headers)) {
      try {
        JSON.parse(body);
        json = true;
      } catch {
        json = false;
      }
    }
    const { mimeType, charset } = contentTypeOf(exchange.response.headers);
    const pairs = Object.entries(exchange.response.headers).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v): [string, string] => [name, v]));
    data.response = { status: exchange.response.status, statusText: exchange.response.statusText, body, json, headers: pairs, mimeType, charset };
  }
  return data;
}

/**
 * A request's scripts of one phase, each in its dialect: one without its own (JetBrains'
 * `{% … %}`) is rest.nvim's Lua when the request says `# @lang=lua`.
 */
function scriptsOf(spec: RequestSpec, phase: ScriptSpec['phase']): ScriptSpec[] {
  const lua = /^lua$/i.test(spec.annotations.lang ?? '');
  return (spec.chain?.scripts ?? []).filter((script) => script.phase === phase).map((script) => (lua && script.dialect === undefined ? { ...script, dialect: 'lua' } : script));
}

/** The request's references, imports and pre-request scripts (also run by `# @loop` before it reads its values: src/pipeline/loop-passes.ts). */
export async function beforeSend(ctx: RequestContext): Promise<void> {
  const chain = chainOf(ctx);
  const spec = ctx.spec.chain;
  for (const imported of spec?.imports ?? []) await chain.importFile(imported.path, ctx.file);
  for (const dependency of spec?.depends ?? []) await chain.depend(dependency.path, ctx.file, `${ctx.spec.source.file}:${dependency.line}`);
  for (const ref of spec?.refs ?? []) await chain.ensure(ref.name, ref.force, `${ctx.spec.source.file}:${ref.line}`);
  await chain.prepare(ctx.spec);
  for (const [name, value] of chain.headers) if (getHeader(ctx.spec.headers, name) === undefined) setHeader(ctx.spec.headers, name, value);
  if (!usesSandbox(ctx.spec)) {
    await scriptValues(ctx, chain);
    ctx.state[STATE] = { startedAt: performance.now() } satisfies ChainState;
    return;
  }
  const raw = { url: ctx.spec.url, headers: { ...ctx.spec.headers }, ...(ctx.spec.body !== undefined ? { body: ctx.spec.body } : {}) };
  const pre = scriptsOf(ctx.spec, 'pre');
  if (pre.length > 0) {
    const run = await runScripts(pre, scriptData(raw, ctx.spec), scriptHost(ctx, chain));
    // A pre-request script that fails leaves its variables unset: the request is not sent.
    if (run.failure) throw scriptStopped(ctx, `pre-request script failed: ${run.failure.text}`);
    (ctx.tests ??= []).push(...run.tests);
  }
  await scriptValues(ctx, chain);
  ctx.state[STATE] = { raw, startedAt: performance.now() } satisfies ChainState;
}

/**
 * What the values scripts set (the request's own pre-request ones just ran) make of the request
 * as written, before the core resolves its templates: httpyac's `...name` header spreads, and a
 * template alone that names a `null` (each module loaded only for a request that has one).
 */
async function scriptValues(ctx: RequestContext, chain: RunChain): Promise<void> {
  if (ctx.spec.chain?.spreads) (await import('./header-spread.js')).spreadHeaders(ctx, chain);
  if (chain.holdsNull()) (await import('./null-values.js')).emptyNullTemplates(ctx, chain);
}

async function afterResponse(ctx: CaptureContext): Promise<void> {
  const chain = chainOf(ctx);
  const state = ctx.state[STATE] as ChainState | undefined;
  const exchange = exchangeOf(ctx.spec, ctx.response, ctx.capturedBody(), state ? performance.now() - state.startedAt : ctx.response.durationMs);
  chain.record(exchange, ctx.spec.loopOf);
  const spec = ctx.spec.chain;
  const tests: TestResult[] = (ctx.tests ??= []);
  // What only scripts, `js` checks and messages need is made when first needed.
  let host: ScriptHost | undefined;
  const hostOf = (): ScriptHost => (host ??= scriptHost(ctx, chain));
  let data: ScriptData | undefined;
  const dataOf = (): ScriptData => (data ??= scriptData(state?.raw ?? { url: ctx.spec.url, headers: ctx.spec.headers }, ctx.spec, exchange));
  let shown: string | undefined;
  const where = (line: number): { file: string; line: number } => ({ file: (shown ??= shownPath(ctx.file)), line });
  // The file's patterns and JSONPaths run on this thread: bounded like its scripts, by the run's runner.
  const { bounded } = chain;

  const post = scriptsOf(ctx.spec, 'post');
  if (post.length > 0) {
    const run = await runScripts(post, dataOf(), hostOf());
    tests.push(...run.tests);
    if (run.failure) tests.push({ name: 'response handler', passed: false, message: run.failure.text, ...where(run.failure.line), error: true });
  }
  for (const capture of spec?.captures ?? []) {
    const what = `# @${capture.syntax === 'jmespath' ? 'extract' : 'capture'} ${capture.name} (${ctx.spec.source.file}:${capture.line})`;
    const value = await captureValue(capture.expression, capture.syntax, exchange, what, bounded);
    chain.variables.set(capture.name, value);
    chain.globalKinds.delete(capture.name); // text, whatever a script set before
    chain.functions.delete(capture.name);
    if (isSecretName(capture.name)) ctx.addSecret?.(value);
    if (ctx.spec.annotations.save !== undefined || ctx.options.save === true) ctx.session.set(capture.name, value);
  }
  for (const assertion of spec?.assertions ?? []) {
    // `?? status == {{code}}`: the line's variables and references are resolved first (an unknown one is exit 3, as anywhere).
    const line = assertion.text.includes('{{') ? await ctx.variables.expand(assertion.text) : assertion.text;
    const test = await evaluateAssertion(line, exchange, where(assertion.line), (expression) => evaluateExpression(expression, dataOf(), hostOf()), bounded);
    tests.push(line === assertion.text ? test : { ...test, name: assertion.text });
  }
  tests.push(...(await evaluateExpectations(ctx.spec.annotations, exchange, where(ctx.spec.source.line), bounded)));
}

const chainPlugin: Plugin = {
  name: 'chain',
  stages: {
    substitute: beforeSend,
    capture: afterResponse,
  },
};

export default chainPlugin;
