import { bodyText, isJsonResponse, isTextual, parseJsonBody } from '../../core/render/body.js';
import { palette } from '../../core/render/colors.js';
import { statusLine, verboseRequest, verboseResponseHeaders } from '../../core/render/describe.js';
import { activeFilter, filteredJson } from '../../core/render/filtered.js';
import { colorizeJson, prettyJson } from '../../core/render/json-text.js';
import { pipeTo } from '../../core/render/pipe.js';
import type { Plugin, RequestContext } from '../../core/pipeline.js';

/**
 * Status line and metadata go to stdout on a terminal and to stderr when piped, so that
 * `reqflow run x.http | jq` receives the body only.
 */
function meta(ctx: RequestContext, text: string): void {
  if (ctx.options.isTerminal) ctx.output.out(text.endsWith('\n') ? text : `${text}\n`);
  else ctx.output.err(text.replace(/\n$/, ''));
}

async function renderBody(ctx: RequestContext): Promise<void> {
  const res = ctx.response;
  if (!res) return;
  const colors = palette(ctx.options.color);
  const filter = activeFilter(ctx);
  if (filter) {
    ctx.output.out(`${prettyJson(await filteredJson(ctx, filter), colors)}\n`);
    return;
  }
  if (isJsonResponse(res)) {
    const body = await ctx.readBody();
    if (body.length === 0) return;
    const parsed = parseJsonBody(body);
    if (parsed.ok) {
      ctx.output.out(`${prettyJson(parsed.value, colors)}\n`);
      return;
    }
    ctx.warn(`response says JSON but ${parsed.reason}; showing it as text`);
    ctx.output.out(ensureNewline(bodyText(body).text));
    return;
  }
  if (ctx.options.isTerminal || !ctx.output.stream || !res.stream) {
    const body = await ctx.readBody();
    if (body.length === 0) return;
    if (!isTextual(res, body) && ctx.options.isTerminal) {
      ctx.output.out(colors.dim(`[binary body, ${body.length} bytes not shown; save it with -o raw > file]\n`));
      return;
    }
    const { text, validUtf8 } = bodyText(body);
    if (!validUtf8) ctx.warn('the body is not valid UTF-8; invalid bytes are shown as \uFFFD (use -o raw for the bytes)');
    ctx.output.out(ensureNewline(looksLikeJson(text) ? colorizeJson(text, colors) : text));
    return;
  }
  // Piped and not JSON: the bytes as they come, without buffering.
  await pipeTo(res.stream, ctx.output.stream);
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

function looksLikeJson(text: string): boolean {
  return /^\s*[[{]/.test(text);
}

const plugin: Plugin = {
  name: 'render-pretty',
  appliesTo: (ctx) => ctx.options.output === 'pretty',
  stages: {
    render: async (ctx) => {
      if (ctx.rendered || !ctx.response) return ctx;
      const colors = palette(ctx.options.color);
      if (ctx.options.verbose) meta(ctx, verboseRequest(ctx, colors));
      meta(ctx, statusLine(ctx, colors));
      if (ctx.options.verbose) meta(ctx, verboseResponseHeaders(ctx, colors));
      await renderBody(ctx);
      ctx.rendered = true;
      return ctx;
    },
  },
};
export default plugin;
