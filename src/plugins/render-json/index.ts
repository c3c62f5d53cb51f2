import { displayHeaders } from '../../core/mask.js';
import { baseRecord, type JsonRecord } from '../../core/render/json-record.js';
import { bodyText, isJsonResponse, parseJsonBody } from '../../core/render/body.js';
import { activeFilter, filteredJson } from '../../core/render/filtered.js';
import type { Plugin, RequestContext } from '../../core/pipeline.js';

async function bodyValue(ctx: RequestContext): Promise<unknown> {
  const filter = activeFilter(ctx);
  if (filter) return filteredJson(ctx, filter);
  const body = await ctx.readBody();
  if (ctx.response && isJsonResponse(ctx.response) && body.length > 0) {
    const parsed = parseJsonBody(body);
    if (parsed.ok) return parsed.value;
    ctx.warn(`response of "${ctx.spec.name}" says JSON but ${parsed.reason}; "body" holds it as text`);
  }
  return bodyText(body).text;
}

const plugin: Plugin = {
  name: 'render-json',
  stages: {
    render: async (ctx) => {
      if (ctx.rendered || !ctx.response) return ctx;
      const res = ctx.response;
      const body = await bodyValue(ctx);
      const record: JsonRecord = {
        ...baseRecord(ctx),
        status: res.status,
        headers: displayHeaders(res.headers, ctx.redact),
        body,
        durationMs: Math.round(res.durationMs * 10) / 10,
        size: res.size,
      };
      // Key order as documented: name, method, url, status, headers, body, durationMs, size, request.
      const { request, ...rest } = record;
      ctx.output.out(`${JSON.stringify({ ...rest, request })}\n`);
      ctx.rendered = true;
      return ctx;
    },
  },
};
export default plugin;
