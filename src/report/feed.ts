import { ExitCode, ReqflowError } from '../core/errors/index.js';
import { filterRunner, requestFilter } from '../core/filter.js';
import { parseJsonBody } from './render/body.js';
import { unknownCharsetWarning } from './render/charset.js';
import type { EventPart, EventSeed, GraphqlResultShape, ReportFeed, Reporter, StreamEndPart, ResponseView, RequestView } from './reporter.js';

/** `--filter` wins over the request's `# @filter`; `# @query` applies to its result. */
function activeFilter(ctx: RequestView): string | undefined {
  return requestFilter(ctx.options, ctx.spec.annotations);
}

/** The whole JSON document of the response; a body that is not JSON is exit 1 naming why. */
async function responseJson(ctx: ResponseView): Promise<unknown> {
  const parsed = parseJsonBody(await ctx.readBody(), ctx.response);
  if (!parsed.ok) {
    throw new ReqflowError(`cannot apply the filter to the response of "${ctx.spec.name}": ${parsed.reason}`, { exitCode: ExitCode.httpFailure, hint: 'filters apply to JSON responses only' });
  }
  if (parsed.unknownCharset !== undefined) ctx.warn(unknownCharsetWarning(parsed.unknownCharset));
  return parsed.value;
}

/**
 * The reporting feed of a run: what render-stage handlers hand responses to. Every filter of
 * reqflow is applied here (plain bodies, GraphQL results, each stream event), and nowhere else.
 */
export function createFeed(reporter: Reporter, scriptTimeoutMs: number | undefined): ReportFeed {
  // Filters run under the script time limit (core/filter.ts says why).
  const applyFilter = filterRunner(scriptTimeoutMs);
  return {
    reporter,

    async response(ctx, options) {
      const head = reporter.responseHead?.(ctx);
      if (head) await head; // most reporters answer synchronously: no turn of the event loop for them
      const filter = options?.filter === false ? undefined : activeFilter(ctx);
      if (filter === undefined) await reporter.body?.(ctx, { kind: 'stream' });
      else await reporter.body?.(ctx, { kind: 'value', value: await applyFilter(filter, await responseJson(ctx)), filtered: true });
      ctx.rendered = true;
    },

    async graphql(ctx, result, bytes) {
      const head = reporter.responseHead?.(ctx);
      if (head) await head; // most reporters answer synchronously: no turn of the event loop for them
      const filter = activeFilter(ctx);
      const value = filter === undefined ? result : await applyFilter(filter, result);
      await reporter.body?.(ctx, { kind: 'graphql', result, value, filtered: filter !== undefined, bytes });
      ctx.rendered = true;
    },

    async stream(ctx, source, close, toEventOf) {
      // Loaded for a stream only: what reads one is no part of a plain request's path.
      const [{ consumeEvents }, { seedOf }] = await Promise.all([import('./consume-events.js'), import('./event-seed.js')]);
      const toEvent = toEventOf ?? seedOf;
      const head = reporter.responseHead?.(ctx);
      if (head) await head; // most reporters answer synchronously: no turn of the event loop for them
      const filter = activeFilter(ctx);
      let warned = false;
      let seq = 0;
      const outcome = await consumeEvents(ctx, source, close, async (event) => {
        const seed = toEvent(event);
        if (seed === false) return false;
        if (seed === undefined) return 'skip';
        const part: EventPart = { seq: ++seq, raw: seed.raw, value: seed.json ? seed.json.value : seed.raw, json: seed.json !== undefined, filtered: false };
        if (seed.event !== undefined) part.event = seed.event;
        if (seed.id !== undefined) part.id = seed.id;
        if (seed.graphql) part.graphql = seed.graphql;
        if (filter !== undefined) {
          if (seed.json) {
            part.value = await applyFilter(filter, seed.json.value);
            part.filtered = true;
          } else if (!warned) {
            warned = true;
            ctx.warn('an event carries data that is not JSON: the filter applies to JSON data only, so such events are shown unfiltered');
          }
        }
        await reporter.event?.(ctx, part);
        return true;
      });
      const end: StreamEndPart = { reason: outcome.end, events: outcome.count };
      await reporter.streamEnd?.(ctx, end);
      ctx.rendered = true;
      return end;
    },
  };
}

