import { bodyText, isJsonResponse, isTextual } from '../../core/render/body.js';
import { palette } from '../../core/render/colors.js';
import { activeFilter, filteredJson } from '../../core/render/filtered.js';
import { colorizeJson, prettyJson } from '../../core/render/json-text.js';
import { renderJsonBody } from '../../core/render/json-stream-render.js';
import { writeResponseHead } from '../../core/render/meta.js';
import { pipeTo } from '../../core/render/pipe.js';
import type { Plugin, RequestContext } from '../../core/pipeline.js';

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
    // Streamed in constant memory; a body that is not JSON falls back to text with a warning.
    await renderJsonBody(ctx, colors);
    return;
  }
  if (ctx.options.isTerminal || !ctx.output.stream || !res.stream || res.body !== undefined) {
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
  stages: {
    render: async (ctx) => {
      if (ctx.rendered || !ctx.response) return ctx;
      writeResponseHead(ctx, palette(ctx.options.color));
      await renderBody(ctx);
      ctx.rendered = true;
      return ctx;
    },
  },
};
export default plugin;
