import type { ResponseView } from '../reporter.js';
import type { Palette } from './colors.js';
import { statusLine } from './describe.js';

/**
 * Status lines and other metadata go to stdout on a terminal and to stderr when piped, so that
 * `reqflow run x.http | jq` receives the body only.
 */
export function writeMeta(ctx: Pick<ResponseView, 'options' | 'output'>, text: string): void {
  if (ctx.options.isTerminal) ctx.output.out(text.endsWith('\n') ? text : `${text}\n`);
  else ctx.output.err(text.endsWith('\n') ? text.slice(0, -1) : text);
}

/** What precedes a body in pretty output: the status line, and with `-v` the request and response headers. */
export function writeResponseHead(ctx: ResponseView, colors: Palette): void | Promise<void> {
  if (!ctx.options.verbose) return writeMeta(ctx, statusLine(ctx, colors));
  return import('./verbose.js').then(({ verboseRequest, verboseResponseHeaders }) => {
    writeMeta(ctx, verboseRequest(ctx, colors));
    writeMeta(ctx, statusLine(ctx, colors));
    writeMeta(ctx, verboseResponseHeaders(ctx, colors));
  });
}
