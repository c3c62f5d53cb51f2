import { stringifyJsonValue } from '../core/json-exact.js';
import type { RequestContext } from '../pipeline/context.js';
import { outgoingRequest, type OutgoingServices } from '../report/outgoing-request.js';
import { bodyText, isTextual } from '../report/render/body.js';
import { formatSize } from '../report/render/describe.js';
import { prettyJson } from '../report/render/json-text.js';
import { prettyReporter, writeReadableBody, type ReadableBodyOptions } from '../report/pretty.js';
import type { Reporter, ResponseView } from '../report/reporter.js';
import { stripAnsi, type ResponseCapture } from './response-capture.js';
import { colors } from './views/format.js';

/** Larger bodies are paged as received, not rendered (rendering 100 MB would hold the UI and its memory). */
const RENDER_LIMIT = 4 * 1024 * 1024;

const PANE_BODY: ReadableBodyOptions = {
  binaryNote: (bytes) => `[binary body, ${formatSize(bytes)} not shown; save it with: reqflow run FILE -n NAME -o raw > file]`,
  // Control characters other than SGR colours, tabs and newlines would move the terminal's cursor.
  safeText: (text) => stripAnsi(text).replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '\uFFFD'),
};

/** A plain body in the pane, through the reporting layer's body renderer; `y` copies the body as received. */
async function paneBody(ctx: ResponseView, capture: ResponseCapture): Promise<void> {
  const body = await ctx.readBody(); // whole: the pager shows it, `s` saves it, `y` copies it
  if (!isTextual(ctx.response, body)) return capture.keepBody(body, 'binary'); // the hex view
  if (body.length > RENDER_LIMIT) return capture.keepBody(body, 'text');
  capture.keepBody(body);
  capture.copySource = bodyText(body, ctx.response).text;
  if (body.length === 0) capture.out(colors.dim('(empty body)\n'));
  else await writeReadableBody(ctx, colors, PANE_BODY);
}

/**
 * The TUI's response pane as a reporter: the status and headers go to the pane's title (not
 * into the text), bodies are drawn for reading, GraphQL results and stream events as `pretty`
 * shows them. Errors go to the status bar (the app reads the outcome), not into the pane.
 */
export function paneReporter(capture: ResponseCapture, run: OutgoingServices = {}): Reporter {
  const pretty = prettyReporter(() => undefined);
  return {
    ...pretty,
    requestStart: () => {
      capture.times = { started: performance.now() };
      delete capture.phases;
    },
    responseHead: (ctx) => {
      capture.streaming = ctx.spec.annotations.streaming === 'true' || ctx.response.events !== undefined;
      capture.setResponse(ctx.response);
    },
    body: async (ctx, body) => {
      if (body.kind === 'stream') await paneBody(ctx, capture);
      else if (body.kind === 'value') {
        capture.out(`${prettyJson(body.value, colors)}\n`);
        capture.copySource = `${stringifyJsonValue(body.value, 2) ?? 'null'}\n`;
      } else await pretty.body?.(ctx, body);
      capture.setResponse(ctx.response); // the size is known now
    },
    // The checks are listed by the response pane from the outcome (panes/checks-view.ts).
    requestEnd: async (outcome, ctx) => {
      capture.times.done = performance.now();
      if (ctx.response) capture.setResponse(ctx.response);
      // The reporter is handed the request's whole context: the request as sent, for `C` (copy as curl).
      if (outcome.sent) capture.outgoing = await outgoingRequest(ctx as RequestContext, run);
    },
  };
}
