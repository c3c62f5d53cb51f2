import { applyFilter } from '../../core/filter.js';
import type { RequestContext, StreamEvent } from '../../core/pipeline.js';
import { bodyText, isTextual, parseJsonBody } from '../../core/render/body.js';
import { palette, type Palette } from '../../core/render/colors.js';
import { activeFilter } from '../../core/render/filtered.js';
import { prettyJson } from '../../core/render/json-text.js';
import { writeMeta, writeResponseHead } from '../../core/render/meta.js';
import { renderEvents } from '../sse/consume.js';
import { formatGraphqlErrors } from './format-errors.js';
import { hasErrors, isGraphqlResult, type GraphqlResult } from './result.js';
import { graphqlState } from './transform.js';

/**
 * One result in the run's output mode: `-o json` the raw `{data, errors}` (or the filter's
 * result), one line each; pretty the data (or the filter's result), then the errors formatted
 * for reading.
 */
async function printResult(ctx: RequestContext, result: GraphqlResult, colors: Palette): Promise<void> {
  const filter = activeFilter(ctx);
  const value = filter !== undefined ? await applyFilter(filter, result) : result;
  switch (ctx.options.output) {
    case 'json':
      ctx.output.out(`${JSON.stringify(value)}\n`);
      return;
    case 'raw':
      ctx.output.out(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
      return;
    default: {
      const errors = result.errors ?? [];
      if (filter !== undefined) {
        ctx.output.out(`${prettyJson(value, colors)}\n`);
      } else if ('data' in result || errors.length === 0) {
        if (errors.length > 0) writeMeta(ctx, colors.dim('data:'));
        ctx.output.out(`${prettyJson(result.data ?? null, colors)}\n`);
      }
      if (errors.length > 0) writeMeta(ctx, formatGraphqlErrors(errors, colors));
    }
  }
}

function parseEvent(event: StreamEvent): unknown {
  try {
    return JSON.parse(event.data);
  } catch {
    return undefined;
  }
}

/** Subscriptions (SSE or WebSocket): each result is shown the moment it arrives, like a response. */
async function renderStream(ctx: RequestContext, colors: Palette): Promise<void> {
  const response = ctx.response;
  if (!response?.events) return;
  const close = graphqlState(ctx)?.close ?? ((): void => void response.stream?.destroy());
  await renderEvents(ctx, colors, response.events, close, async (event) => {
    if (event.event === 'complete') return false; // GraphQL over SSE: the operation is done
    const result = parseEvent(event);
    if (!isGraphqlResult(result)) {
      ctx.warn(`skipped an event of "${ctx.spec.name}" that is not a GraphQL result: ${event.data.slice(0, 80)}`);
      return true;
    }
    if (hasErrors(result)) ctx.failed = true;
    await printResult(ctx, result, colors);
    return true;
  });
}

/**
 * A whole response. GraphQL results (whatever the status: a 4xx may carry `errors`) are shown
 * as data and readable errors. Anything else (an HTML error page, plain text) is left to the
 * ordinary renderers, which show its status and body; a 2xx of that kind is a failure.
 */
async function renderResponse(ctx: RequestContext, colors: Palette): Promise<void> {
  const response = ctx.response;
  if (!response) return;
  const body = await ctx.readBody();
  const parsed = parseJsonBody(body);
  if (!parsed.ok || !isGraphqlResult(parsed.value)) {
    if (response.status < 400) {
      ctx.warn(`the response to GraphQL request "${ctx.spec.name}" is not a GraphQL response (${parsed.ok ? 'JSON without "data" or "errors"' : parsed.reason})`);
      ctx.failed = true;
    }
    if (ctx.options.output === 'pretty' && activeFilter(ctx) !== undefined) {
      // The filter cannot apply: still show what the server said.
      ctx.warn(`the filter was not applied: the response to "${ctx.spec.name}" is not a GraphQL response`);
      writeResponseHead(ctx, colors);
      ctx.output.out(isTextual(response, body) ? `${bodyText(body).text.replace(/\n?$/, '\n')}` : colors.dim(`[binary body, ${body.length} bytes]\n`));
      ctx.rendered = true;
    }
    return;
  }
  const result = parsed.value;
  if (hasErrors(result)) ctx.failed = true;
  if (ctx.options.output === 'raw') return; // render-raw writes the body bytes (or the filter's result)
  if (ctx.options.output === 'pretty') writeResponseHead(ctx, colors);
  await printResult(ctx, result, colors);
  ctx.rendered = true;
}

/** GraphQL mode's render stage; sets `failed` (exit 1) when a result carries `errors`. */
export async function renderGraphql(ctx: RequestContext): Promise<RequestContext> {
  if (ctx.rendered || !ctx.response) return ctx;
  const colors = palette(ctx.options.color);
  if (ctx.response.events) await renderStream(ctx, colors);
  else await renderResponse(ctx, colors);
  return ctx;
}
