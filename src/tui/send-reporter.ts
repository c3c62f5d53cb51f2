import type { OutputSink, RequestSpec } from '../core/model.js';
import type { OutgoingServices } from '../report/outgoing-request.js';
import type { Reporter, RequestOutcome } from '../report/reporter.js';
import { paneReporter } from './pane-reporter.js';
import { requestId } from './request-states.js';
import { ResponseCapture } from './response-capture.js';

/** Where the reports of the requests that ran first for the one sent go. */
export interface DependencyHooks {
  /** A referred-to request starts: its own capture (it becomes that request's state when done). */
  start(spec: RequestSpec): ResponseCapture;
  end(spec: RequestSpec, outcome: RequestOutcome, capture: ResponseCapture): void;
}

/**
 * The reporter and output of one send: the sent request's events go to its pane capture; a
 * request that ran first for it (chaining: `{{login.response…}}`, `# @ref`) reports into a
 * capture of its own, so its body never lands in the sent request's pane and it keeps its own
 * response. Within one send requests nest (a dependency runs inside the substitution of the
 * request that needs it), so the output goes to the innermost request running.
 */
export function sendReporter(sent: RequestSpec, capture: ResponseCapture, dependencies: DependencyHooks, run: OutgoingServices = {}): { reporter: Reporter; output: OutputSink } {
  const own = requestId(sent);
  const main = paneReporter(capture, run);
  const others = new Map<string, { reporter: Reporter; capture: ResponseCapture }>();
  const nested: ResponseCapture[] = [];
  const current = (): ResponseCapture => nested[nested.length - 1] ?? capture;
  const route = (spec: RequestSpec): Reporter => {
    const id = requestId(spec);
    if (id === own) return main;
    let entry = others.get(id);
    if (!entry) {
      const depCapture = dependencies.start(spec);
      entry = { reporter: paneReporter(depCapture, run), capture: depCapture };
      others.set(id, entry);
    }
    return entry.reporter;
  };
  const reporter: Reporter = {
    requestStart: (spec) => {
      route(spec).requestStart?.(spec);
      const id = requestId(spec);
      if (id !== own) nested.push(others.get(id)?.capture ?? capture);
    },
    responseHead: (ctx) => route(ctx.spec).responseHead?.(ctx),
    body: (ctx, body) => route(ctx.spec).body?.(ctx, body),
    event: (ctx, event) => route(ctx.spec).event?.(ctx, event),
    streamEnd: (ctx, end) => route(ctx.spec).streamEnd?.(ctx, end),
    requestEnd: async (outcome, ctx) => {
      await route(outcome.spec).requestEnd?.(outcome, ctx);
      const id = requestId(outcome.spec);
      const entry = others.get(id);
      if (!entry) return;
      others.delete(id);
      nested.pop();
      dependencies.end(outcome.spec, outcome, entry.capture);
    },
    runEnd: (summary) => main.runEnd?.(summary),
  };
  const output: OutputSink = {
    out: (chunk) => current().out(chunk),
    err: (line) => current().err(line),
  };
  return { reporter, output };
}
