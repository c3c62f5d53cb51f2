import { bodyText, isJsonResponse, isTextual, parseJsonBody } from '../core/render/body.js';
import { palette } from '../core/render/colors.js';
import { formatSize, statusLine } from '../core/render/describe.js';
import { activeFilter, filteredJson } from '../core/render/filtered.js';
import { colorizeJson, prettyJson } from '../core/render/json-text.js';
import type { RequestContext } from '../core/pipeline.js';
import type { PluginEntry } from '../core/registry.js';
import { ResponseCapture, stripAnsi } from './response-capture.js';

const RENDERERS = ['render-pretty', 'render-json', 'render-raw'];
const SPECIAL_RENDERERS = ['graphql', 'sse'];

function captureOf(ctx: RequestContext): ResponseCapture | undefined {
  return ctx.output instanceof ResponseCapture ? ctx.output : undefined;
}

/** The body as the response pane shows it (colours as ANSI, which the pane renders). */
async function paneBody(ctx: RequestContext, capture: ResponseCapture): Promise<void> {
  const res = ctx.response;
  if (!res) return;
  const colors = palette(true);
  const filter = activeFilter(ctx);
  if (filter) {
    const value = await filteredJson(ctx, filter);
    capture.out(`${prettyJson(value, colors)}\n`);
    capture.copySource = `${JSON.stringify(value, null, 2)}\n`;
    return;
  }
  const body = await ctx.readBody();
  if (body.length === 0) {
    capture.out(colors.dim('(empty body)\n'));
    capture.copySource = '';
    return;
  }
  if (isJsonResponse(res)) {
    const parsed = parseJsonBody(body);
    if (parsed.ok) {
      capture.out(`${prettyJson(parsed.value, colors)}\n`);
      capture.copySource = body.toString('utf8');
      return;
    }
    ctx.warn(`response says JSON but ${parsed.reason}; showing it as text`);
  } else if (!isTextual(res, body)) {
    capture.out(colors.dim(`[binary body, ${formatSize(body.length)} not shown; save it with: reqflow run FILE -n NAME -o raw > file]\n`));
    capture.copySource = '';
    return;
  }
  const { text } = bodyText(body);
  capture.copySource = text;
  // Control characters other than SGR colours, tabs and newlines would move the terminal's cursor.
  const safe = stripAnsi(text).replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '\uFFFD');
  capture.out(/^\s*[[{]/.test(safe) ? colorizeJson(safe, colors) : safe);
}

/**
 * The TUI's renderer, as two pipeline entries: `tui-response` records the status and headers
 * before any renderer runs (so a stream shows them at once), and `tui-body` renders the body
 * into the pane unless GraphQL or SSE already did. Both act only when the output is a
 * {@link ResponseCapture}, and run before the CLI renderers so those never write to stdout.
 */
export const TUI_RENDER_ENTRIES: readonly PluginEntry[] = [
  {
    name: 'tui-response',
    builtin: true,
    stages: ['render'],
    before: [...SPECIAL_RENDERERS, ...RENDERERS],
    load: () =>
      Promise.resolve({
        name: 'tui-response',
        stages: {
          render: (ctx) => {
            const capture = captureOf(ctx);
            if (capture && ctx.response) {
              capture.streaming = ctx.spec.annotations.streaming === 'true' || ctx.response.events !== undefined;
              capture.skipOnce = `${statusLine(ctx, palette(ctx.options.color))}\n`;
              capture.setResponse(ctx.response);
            }
            return ctx;
          },
        },
      }),
  },
  {
    name: 'tui-body',
    builtin: true,
    stages: ['render'],
    after: ['tui-response', ...SPECIAL_RENDERERS],
    before: RENDERERS,
    load: () =>
      Promise.resolve({
        name: 'tui-body',
        stages: {
          render: async (ctx) => {
            const capture = captureOf(ctx);
            if (!capture) return ctx;
            if (!ctx.rendered) await paneBody(ctx, capture);
            ctx.rendered = true;
            if (ctx.response) capture.setResponse(ctx.response);
            return ctx;
          },
        },
      }),
  },
];
