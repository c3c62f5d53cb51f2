import type { RenderContext } from '../pipeline/context.js';
import { bodyText, isJsonResponse, isTextual, parseJsonBody } from '../report/render/body.js';
import { palette } from '../report/render/colors.js';
import { formatSize } from '../report/render/describe.js';
import { colorizeJson, prettyJson } from '../report/render/json-text.js';
import { prettyReporter } from '../report/pretty.js';
import type { Reporter } from '../report/reporter.js';
import { stripAnsi, type ResponseCapture } from './response-capture.js';

/** A plain body as the response pane shows it (colours as ANSI, which the pane renders), and what `y` copies. */
async function paneBody(ctx: RenderContext, capture: ResponseCapture): Promise<void> {
  const res = ctx.response;
  const colors = palette(true);
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
 * The TUI's response pane as a reporter: the status and headers go to the pane's title (not
 * into the text), bodies are drawn for reading, GraphQL results and stream events as `pretty`
 * shows them. Errors go to the status bar (the app reads the outcome), not into the pane.
 */
export function paneReporter(capture: ResponseCapture): Reporter {
  const pretty = prettyReporter(() => undefined);
  return {
    ...pretty,
    responseHead: (ctx) => {
      capture.streaming = ctx.spec.annotations.streaming === 'true' || ctx.response.events !== undefined;
      capture.setResponse(ctx.response);
    },
    body: async (ctx, body) => {
      if (body.kind === 'stream') await paneBody(ctx, capture);
      else if (body.kind === 'value') {
        capture.out(`${prettyJson(body.value, palette(true))}\n`);
        capture.copySource = `${JSON.stringify(body.value, null, 2)}\n`;
      } else await pretty.body?.(ctx, body);
      capture.setResponse(ctx.response); // the size is known now
    },
    requestEnd: (_outcome, ctx) => {
      if (ctx.response) capture.setResponse(ctx.response);
    },
  };
}
