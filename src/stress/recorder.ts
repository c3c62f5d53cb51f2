/**
 * The reporter behind a stress run: it shows nothing, reads each body to its end (keeping none
 * of it: what checks need is recorded by the pipeline itself), times the request from sending
 * to the body's end, and hands the stressed request's outcome on (with its context: the engine
 * prepares the replay from it). Requests it depends on (a
 * login) pass through the same loop but are not counted.
 */
import { finished } from 'node:stream/promises';
import type { RequestSpec } from '../core/model.js';
import type { RequestContext } from '../pipeline/context.js';
import type { Reporter, RequestOutcome } from '../report/reporter.js';

const STARTED = 'stressStartedAt';
const ENDED = 'stressBodyEndedAt';

export function stressRecorder(target: RequestSpec, onOutcome: (outcome: RequestOutcome, latencyMs: number | undefined, ctx: RequestContext) => void): Reporter {
  return {
    responseHead: (ctx) => {
      ctx.state[STARTED] ??= performance.now() - ctx.response.durationMs;
    },
    body: async (ctx, body) => {
      const stream = ctx.response.stream;
      if (body.kind === 'stream' && stream && !stream.readableEnded) {
        stream.resume();
        await finished(stream);
      }
      ctx.state[ENDED] = performance.now();
    },
    streamEnd: (ctx) => {
      ctx.state[ENDED] = performance.now();
    },
    requestEnd: (outcome, ctx) => {
      if (outcome.spec !== target) return;
      const started = ctx.state[STARTED];
      const ended = ctx.state[ENDED];
      const latency = outcome.response ? (typeof started === 'number' && typeof ended === 'number' ? ended - started : outcome.response.durationMs) : undefined;
      // The loop hands reporters the request's own context (loop.ts): the engine reads its plugins and TLS options.
      onOutcome(outcome, latency, ctx as RequestContext);
    },
  };
}
