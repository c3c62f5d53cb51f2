/**
 * The pipeline, read top to bottom: what happens to every request of every front end (the CLI,
 * the TUI). Parsing happens once per file (`parse-file.ts`); then each request goes through
 *
 *   substitute → auth → transform → send → render → [capture] → [persist]
 *
 * (`persist` is where the history hook keeps each sent request; `runRequests` writes the run's
 * history once, at its end.)
 *
 * Stages and hooks run the handlers of the plugins that apply to the request, in registry
 * order (`core/registry.ts`; built-ins are listed in `pipeline/builtins.ts`). The response goes to
 * the run's reporter through `ctx.report` in `render` (`src/report/`).
 */
import type { RunChain } from '../chain/chain.js';
import { ExitCode, ReqflowError, internalError, isReqflowError } from '../core/errors/index.js';
import type { RequestSpec } from '../core/model.js';
import type { PluginEntry, PluginRegistry } from '../core/registry.js';
import { learnAuthHeaders, learnRequestSecrets } from '../core/request-secrets.js';
import { CHAIN_CAPTURE_LIMIT, captureBody } from '../core/token-extraction.js';
import type { RequestOutcome, RunSummary } from '../report/reporter.js';
import { callHandler } from './call-handler.js';
import type { CaptureContext, PersistContext, RequestContext } from './context.js';
import { createContext, type RunServices } from './create-context.js';
import type { RequestFile } from './request-file.js';
import type { Step } from './plugin.js';

/**
 * Runs the handlers of one stage or hook, in order, for the plugins that apply to this request
 * (or for `applicable`, when the caller has already picked them). Synchronous while every
 * handler is (no promise at all: a batch pays for each one, per stage, per request); from the
 * first handler that returns a promise, or plugin that must be imported, it goes on after it.
 */
function runStep(step: Step, ctx: RequestContext, registry: PluginRegistry, applicable?: readonly PluginEntry[], from = 0): void | Promise<void> {
  const entries = applicable ?? registry.ordered(step);
  for (let i = from; i < entries.length; i++) {
    const entry = entries[i] as PluginEntry;
    if (step === 'send' && ctx.response) return; // the first sender wins
    if (!applicable && !registry.applies(entry, ctx, step)) continue;
    const plugin = registry.loadedPlugin(entry);
    if (!plugin) return resumeAfter(registry.load(entry), step, ctx, registry, applicable, i);
    const handler = plugin.stages[step] as ((ctx: RequestContext) => unknown) | undefined;
    if (!handler) continue;
    const result = callHandler(entry, step, handler, ctx);
    if (result instanceof Promise) return resumeAfter(result, step, ctx, registry, applicable, i + 1);
  }
}

/**
 * The rest of a stage once `pending` settles. Apart from runStep so that its loop makes no
 * closure: one there would capture the loop's variables, and V8 would then allocate them afresh
 * for every plugin looked at, per stage, per request.
 */
function resumeAfter(pending: Promise<unknown>, step: Step, ctx: RequestContext, registry: PluginRegistry, applicable: readonly PluginEntry[] | undefined, next: number): Promise<void> {
  return pending.then(() => runStep(step, ctx, registry, applicable, next));
}

/** What a request captures when no capture plugin applies to it. */
const nothingCaptured = (): undefined => undefined;

/** One request through every stage and hook. Never throws: errors end up in the outcome (and the reporter). */
export async function runRequest(spec: RequestSpec, file: string, run: RunServices): Promise<RequestOutcome> {
  // httpyac's `# @loop`: a request per pass (loop-passes.ts, loaded only for one; a pass has no `loop`).
  if (spec.loop) return (await import('./loop-passes.js')).runLoop(spec, file, run, runRequest);
  const { registry, report } = run;
  const ctx = createContext(spec, file, run);
  report.reporter.requestStart?.(ctx.spec);
  let error: ReqflowError | undefined;
  let timing: PersistContext['timing'];
  let sentAt = 0; // performance.now() when sent; 0: not sent
  let sentAtWall = 0;
  try {
    registry.checkAuthAvailable(ctx);
    // A stage whose handlers were all synchronous returned no promise: nothing to await (a batch
    // pays for every await, per stage, per request).
    let step = runStep('substitute', ctx, registry); // {{…}} resolved, profile headers merged, TLS paths made absolute
    if (step) await step;
    const unauthenticated = { ...ctx.spec.headers };
    const unauthenticatedUrl = ctx.spec.url;
    step = runStep('auth', ctx, registry); // Authorization, API keys, signatures, client certificates
    if (step) await step;
    // Whatever an auth plugin put in a header is a credential from here on, whatever its name (-v,
    // errors, reports; not sent to another origin); so are secret-named headers the file wrote.
    const credentials = learnAuthHeaders(run.secrets, unauthenticated, ctx.spec.headers);
    if (credentials) ctx.credentialHeaders = credentials;
    // And so is a query parameter it added (`?sig=…`), whatever its name: its value, wherever it turns up.
    if (ctx.spec.url !== unauthenticatedUrl) (await import('../core/auth-query-secrets.js')).learnAuthQuery(run.secrets, unauthenticatedUrl, ctx.spec.url);
    run.secrets.addHeaders(ctx.spec.headers);
    step = runStep('transform', ctx, registry); // body and headers for the wire (GraphQL JSON)
    if (step) await step;
    // So is a value the request writes under a secret-looking name (`?api_key=`, `"password":`): masked wherever it turns up again.
    // A body sent from its file is past what is scanned (it stays unread).
    const body = ctx.spec.bodyFile?.stillBodyOf(ctx.spec) ? undefined : ctx.spec.body;
    if (body !== undefined || ctx.spec.url.includes('?') || ctx.spec.url.includes('@')) learnRequestSecrets(run.secrets, ctx.spec.url, body);
    if (run.options.dryRun) {
      // --dry-run: the request as it would go out, and nothing sent.
      const { dryRunText } = await import('../report/dry-run.js'); // only a dry run prints requests
      run.output.out(await dryRunText(ctx, run));
      return { spec, exitCode: ExitCode.ok, sent: ctx.spec };
    }
    sentAtWall = Date.now();
    sentAt = performance.now();
    step = runStep('send', ctx, registry); // sets ctx.response: headers in, body still streaming
    if (step) await step;
    const response = ctx.response;
    if (!response) throw new ReqflowError(`no plugin sent request "${spec.name}"`, { exitCode: ExitCode.internal });
    // Capture plugins see the body the reporter streams: keep its first MiB on the way.
    const capturers = registry.applicable('capture', ctx);
    // A chained request keeps more of its body: later requests and checks read it.
    (ctx as CaptureContext).capturedBody = capturers.length > 0 ? captureBody(response, ctx.chain?.wants(ctx.spec) === true ? CHAIN_CAPTURE_LIMIT : undefined) : nothingCaptured;
    step = runStep('render', ctx, registry); // to ctx.report, which filters and feeds the reporter
    if (step) await step;
    timing = { startedAt: sentAtWall, durationMs: performance.now() - sentAt }; // the body is in and shown
    if (response.stream && !response.stream.readableEnded) response.stream.resume(); // free the socket for the next request
    step = runStep('capture', ctx, registry, capturers); // token extraction, @capture
    if (step) await step;
  } catch (caught) {
    error = isReqflowError(caught) ? caught : internalError(caught);
    // An error about what the request says is named by where it is written (loaded for one only).
    if (error.atRequest === true) error = (await import('./request-place.js')).placedError(error, spec);
    ctx.response?.stream?.destroy();
    if (sentAt > 0) timing ??= { startedAt: sentAtWall, durationMs: performance.now() - sentAt };
  }
  try {
    const persisting = ctx as PersistContext;
    if (error) persisting.error = error;
    if (timing) persisting.timing = timing;
    const step = runStep('persist', persisting, registry); // history, session, cookies
    if (step) await step;
  } catch (caught) {
    // After a failed request, the first error is the one to report.
    error ??= isReqflowError(caught) ? caught : internalError(caught);
  }
  // A request with checks passes or fails by its checks (`?? status == 404` expects a 404); else by its status.
  const checked = ctx.tests !== undefined && ctx.tests.length > 0;
  const failed = ctx.response !== undefined && (checked ? ctx.tests?.some((test) => !test.passed) === true : ctx.response.status >= 400 || ctx.failed === true);
  const outcome: RequestOutcome = { spec, exitCode: error ? error.exitCode : failed ? ExitCode.httpFailure : ExitCode.ok };
  if (ctx.tests && ctx.tests.length > 0) outcome.tests = ctx.tests;
  if (ctx.response) outcome.response = ctx.response;
  outcome.sent = ctx.spec;
  if (error) outcome.error = error;
  if (ctx.state.streamEndedByUser === true) outcome.streamEndedByUser = true;
  const reported = report.reporter.requestEnd?.(outcome, ctx);
  if (reported) await reported;
  return outcome;
}

export interface RunRequestsOptions {
  /** `--fail-fast`: stop after the first request that did not pass. */
  failFast: boolean;
  /** Checked after each request: true when the run must end quietly (the output went away). */
  stop(): boolean;
}

/**
 * The chaining state of a run over `specs` (the whole file: a request picked with `-n` may refer
 * to any other). Loaded only for a run that needs one (`needsChain`).
 */
export async function createChain(requests: RequestFile, file: string, run: RunServices, load: (path: string) => Promise<RequestSpec[]>): Promise<RunChain> {
  const [{ RunChain }, { runTexts }] = await Promise.all([import('../chain/chain.js'), import('../chain/needs-chain.js')]);
  const chain = new RunChain({ run: (spec, from) => runRequest(spec, from, run), load, secrets: run.secrets, ...(run.options.dryRun ? { dryRun: true } : {}), ...(run.options.scriptTimeoutMs !== undefined ? { scriptTimeoutMs: run.options.scriptTimeoutMs } : {}) }, run.environment?.variables, runTexts(run.environment?.variables, run.profile));
  chain.addFile(requests, file);
  return chain;
}

/**
 * The requests of one file in order (built as they are reached: `requestsOf`); later ones see
 * what earlier ones left in the session. Nothing of a request is kept once it ran but what the
 * summary counts: memory does not grow with the length of the file.
 */
export async function runRequests(specs: Iterable<RequestSpec>, file: string, run: RunServices, options: RunRequestsOptions): Promise<RunSummary & { streamEndedByUser: boolean }> {
  const summary: RunSummary = { requests: 0, errors: 0, failures: 0, exitCode: ExitCode.ok };
  let firstError: number | undefined;
  let streamEndedByUser = false;
  try {
    for (const spec of specs) {
      if (run.signal.aborted) break;
      if (run.chain?.ran(spec)) continue; // it ran already, because an earlier request referred to it
      const outcome = run.chain ? await run.chain.run(spec, file) : await runRequest(spec, file, run);
      if (options.stop()) break; // the request cut short by the closed output is not a failure
      if (outcome.streamEndedByUser) streamEndedByUser = true;
      summary.requests++;
      if (outcome.error) {
        summary.errors++;
        firstError ??= outcome.exitCode;
      } else if (outcome.exitCode !== ExitCode.ok) summary.failures++;
      if (options.failFast && outcome.exitCode !== ExitCode.ok) break;
    }
  } finally {
    // The history is written once per run (Ctrl-C, --fail-fast and a closed output end here too).
    await run.history?.flush();
  }
  // The first error's code (network, TLS, variable, ...), else 1 if any response failed, else 0.
  summary.exitCode = firstError ?? (summary.failures > 0 ? ExitCode.httpFailure : ExitCode.ok);
  await run.report.reporter.runEnd?.(summary);
  return { ...summary, streamEndedByUser };
}
