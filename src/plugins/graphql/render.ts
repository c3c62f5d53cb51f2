import { requestFilter } from '../../core/filter.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../core/json-depth.js';
import type { StreamEvent } from '../../core/model.js';
import type { RenderContext } from '../../pipeline/context.js';
import { parseJsonBody } from '../../report/render/body.js';
import type { EventSeed } from '../../report/reporter.js';
import { hasErrors, isGraphqlResult } from './result.js';
import { graphqlState } from './transform.js';

/** Subscriptions (SSE or WebSocket): each result goes to the reporter the moment it arrives. */
async function renderStream(ctx: RenderContext): Promise<void> {
  const response = ctx.response;
  if (!response.events) return;
  const close = graphqlState(ctx)?.close ?? ((): void => void response.stream?.destroy());
  await ctx.report.stream(ctx, response.events, close, (event: StreamEvent): EventSeed | false | undefined => {
    if (event.event === 'complete') return false; // GraphQL over SSE: the operation is done
    const parsed = parseJsonBody(Buffer.from(event.data));
    if (!parsed.ok || !isGraphqlResult(parsed.value)) {
      ctx.warn(`skipped an event of "${ctx.spec.name}" that is not a GraphQL result: ${event.data.slice(0, 80)}`);
      return undefined;
    }
    if (hasErrors(parsed.value)) ctx.failed = true;
    // Too deep to print or write as JSON (the call stack overflowed): shown as the text it is.
    if (nestedDeeperThan(parsed.value, MAX_JSON_DEPTH)) return { raw: event.data, ...(event.event !== undefined ? { event: event.event } : {}) };
    return { raw: event.data, json: { value: parsed.value }, graphql: parsed.value };
  });
}

/**
 * A whole response. GraphQL results (whatever the status: a 4xx may carry `errors`) are shown
 * as data and readable errors. Anything else (an HTML error page, plain text) is shown as an
 * ordinary response, unfiltered; a 2xx of that kind is a failure.
 */
async function renderResponse(ctx: RenderContext): Promise<void> {
  const response = ctx.response;
  const body = await ctx.readBody();
  const parsed = parseJsonBody(body);
  if (!parsed.ok || !isGraphqlResult(parsed.value)) {
    if (response.status < 400) {
      ctx.warn(`the response to GraphQL request "${ctx.spec.name}" is not a GraphQL response (${parsed.ok ? 'JSON without "data" or "errors"' : parsed.reason})`);
      ctx.failed = true;
    }
    if (requestFilter(ctx.options, ctx.spec.annotations) !== undefined) {
      // The filter cannot apply: still show what the server said.
      ctx.warn(`the filter was not applied: the response to "${ctx.spec.name}" is not a GraphQL response`);
      await ctx.report.response(ctx, { filter: false });
    }
    return;
  }
  if (hasErrors(parsed.value)) ctx.failed = true;
  if (nestedDeeperThan(parsed.value, MAX_JSON_DEPTH)) {
    // Printing it as data and errors recurses through it and overflowed the call stack (exit 70):
    // the ordinary renderers show a body that deep as text, and a filter says it cannot apply.
    ctx.warn(`the response to GraphQL request "${ctx.spec.name}" is nested more than ${MAX_JSON_DEPTH} levels deep; shown as the body it is`);
    await ctx.report.response(ctx);
    return;
  }
  await ctx.report.graphql(ctx, parsed.value, body);
}

/** GraphQL mode's render stage; sets `failed` (exit 1) when a result carries `errors`. */
export async function renderGraphql(ctx: RenderContext): Promise<void> {
  if (ctx.rendered) return;
  if (ctx.response.events) await renderStream(ctx);
  else await renderResponse(ctx);
}
