import { charsetOf, decoderFor, unknownCharsetWarning } from './render/charset.js';
import { Transform, type Readable } from 'node:stream';
import { bodyText, isTextual, parseJsonBody } from './render/body.js';
import { contentType, isJsonResponse } from '../core/content-type.js';
import { palette, type Palette } from './render/colors.js';
import { formatGraphqlErrors } from './render/graphql-errors.js';
import { colorizeJson, prettyJson } from './render/json-text.js';
import { renderJsonBody } from './render/json-body.js';
import { writeMeta, writeResponseHead } from './render/meta.js';
import { pipeTo } from './render/pipe.js';
import type { BodyPart, EventPart, GraphqlResultShape, Reporter, RequestOutcome, StreamEnd, StreamEndPart, ResponseView } from './reporter.js';
import { visible, visibleText } from './render/visible.js';
import { testLines } from './render/test-lines.js';
import { SafeTextDecoder, type SafeText } from './render/safe-text.js';

/** `3 events; stopped by --max-events` for the closing line of a stream. */
function describeStreamEnd(end: StreamEndPart): string {
  const events = `${end.events} event${end.events === 1 ? '' : 's'}`;
  const why: Record<StreamEnd, string> = { 'max-events': 'stopped by --max-events', timeout: 'stopped by --stream-timeout', user: 'stopped by the user', complete: 'the server ended the stream' };
  return `${events}; ${why[end.reason]}`;
}

/** A GraphQL result for reading: the data, then its errors (or a filter's result alone). */
function graphqlText(result: GraphqlResultShape, value: unknown, filtered: boolean, colors: Palette): { data?: string; errors?: string } {
  const errors = result.errors ?? [];
  const text: { data?: string; errors?: string } = {};
  if (filtered) text.data = `${prettyJson(value, colors)}\n`;
  else if ('data' in result || errors.length === 0) text.data = `${prettyJson(result.data ?? null, colors)}\n`;
  if (errors.length > 0) text.errors = formatGraphqlErrors(errors, colors);
  return text;
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** How a front end shows a body for reading (the CLI and the TUI differ only in these). */
export interface ReadableBodyOptions {
  /** What replaces a binary body. */
  binaryNote(bytes: number): string;
  /** Text as it may be shown (the TUI makes control characters harmless). */
  safeText?: SafeText;
}

const CLI_BODY: ReadableBodyOptions = { binaryNote: (bytes) => `[binary body, ${bytes} bytes not shown; save it with -o raw > file]`, safeText: visibleText };

/**
 * A body that arrived as bytes, for reading: JSON pretty-printed and coloured (streamed in
 * constant memory; a body that is not JSON after all falls back to text with a warning), text as
 * it is, binary summarised on a terminal. The one body renderer of `pretty` and the TUI.
 */
export async function writeReadableBody(ctx: ResponseView, colors: Palette, options: ReadableBodyOptions = CLI_BODY): Promise<void> {
  const res = ctx.response;
  if (isJsonResponse(res)) {
    const charset = charsetOf(contentType(res));
    if (charset.unknownLabel !== undefined) ctx.warn(unknownCharsetWarning(charset.unknownLabel));
    if (charset.encoding === 'utf-8') return renderJsonBody(ctx, colors, options.safeText);
    // JSON in another charset (rare): read whole, decoded, then pretty-printed; text if it is not JSON.
    const parsed = parseJsonBody(await ctx.readBody(), res);
    if (parsed.ok) return void ctx.output.out(`${prettyJson(parsed.value, colors)}\n`);
  }
  if (ctx.options.isTerminal || !ctx.output.stream || !res.stream || res.body !== undefined) {
    const body = await ctx.readBody();
    if (body.length === 0) return;
    if (!isTextual(res, body) && ctx.options.isTerminal) {
      ctx.output.out(colors.dim(`${options.binaryNote(body.length)}\n`));
      return;
    }
    const { text: decoded, validUtf8, unknownCharset } = bodyText(body, res);
    if (unknownCharset !== undefined) ctx.warn(unknownCharsetWarning(unknownCharset));
    if (!validUtf8) ctx.warn('the body is not valid UTF-8; invalid bytes are shown as \uFFFD (use -o raw for the bytes)');
    const text = options.safeText ? options.safeText(decoded) : decoded;
    ctx.output.out(ensureNewline(/^\s*[[{]/.test(text) ? colorizeJson(text, colors) : text));
    return;
  }
  // Piped and not JSON: streamed as it comes, without buffering (text made safe on the way).
  // Bytes of a binary (or untyped) body pass unchanged, so `> file` keeps them.
  const text = options.safeText !== undefined && contentType(res) !== '' && isTextual(res);
  await pipeTo(text && options.safeText ? through(res.stream, safeTextStream(options.safeText, contentType(res), (label) => ctx.warn(unknownCharsetWarning(label)))) : res.stream, ctx.output.stream);
}

/** `source` piped into `transform`, with the source's errors (a reset mid-body) passed on. */
function through(source: Readable, transform: Transform): Transform {
  source.on('error', (error) => transform.destroy(error));
  return source.pipe(transform);
}

/** Applies `safeText` to a body as it streams, in its charset (known from the header and the first chunk). */
function safeTextStream(safeText: SafeText, type: string, onUnknown: (label: string) => void): Transform {
  let decoder: SafeTextDecoder | undefined;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (!decoder) {
        const charset = charsetOf(type, chunk);
        if (charset.unknownLabel !== undefined) onUnknown(charset.unknownLabel);
        decoder = new SafeTextDecoder(safeText, decoderFor(charset.encoding));
      }
      callback(null, decoder.write(chunk));
    },
    flush(callback) {
      callback(null, decoder?.end() ?? '');
    },
  });
}

function writeGraphql(ctx: ResponseView, result: GraphqlResultShape, value: unknown, filtered: boolean, colors: Palette): void {
  const text = graphqlText(result, value, filtered, colors);
  if (text.data !== undefined) {
    if (text.errors !== undefined) writeMeta(ctx, colors.dim('data:'));
    ctx.output.out(text.data);
  }
  if (text.errors !== undefined) writeMeta(ctx, text.errors);
}

/** A plain response's body for reading, as {@link BodyPart} says it came. */
function writeBody(ctx: ResponseView, body: BodyPart, colors: Palette): void | Promise<void> {
  switch (body.kind) {
    case 'stream':
      return writeReadableBody(ctx, colors);
    case 'value':
      return void ctx.output.out(`${prettyJson(body.value, colors)}\n`);
    case 'graphql':
      return writeGraphql(ctx, body.result, body.value, body.filtered, colors);
    case 'text':
      return void ctx.output.out(isTextual(ctx.response, body.bytes) ? ensureNewline(visibleText(bodyText(body.bytes, ctx.response).text)) : colors.dim(`[binary body, ${body.bytes.length} bytes]\n`));
  }
}

/**
 * `-o pretty`: a status line (with `-v` the request and response headers), then the body for
 * reading — JSON pretty-printed and coloured on a terminal, streams event by event with a
 * closing line saying why they ended. Status lines go to stderr when the output is piped.
 */
export function prettyReporter(printError: (outcome: RequestOutcome) => void): Reporter {
  const colorsOf = (ctx: ResponseView): Palette => palette(ctx.options.color);
  return {
    responseHead: (ctx) => writeResponseHead(ctx, colorsOf(ctx)),
    body: async (ctx, body: BodyPart) => {
      const colors = colorsOf(ctx);
      await writeBody(ctx, body, colors);
      // `-v`: the trailer fields, which came after the body, right after it (verbose.js is loaded: the head used it).
      if (ctx.options.verbose && ctx.response.trailers) writeMeta(ctx, (await import('./render/verbose.js')).verboseTrailers(ctx, colors));
    },
    event: (ctx, event: EventPart) => {
      const colors = colorsOf(ctx);
      if (event.graphql) return writeGraphql(ctx, event.graphql, event.value, event.filtered, colors);
      const label = [event.event !== undefined ? `event: ${visible(event.event)}` : '', event.id !== undefined ? `id: ${visible(event.id)}` : ''].filter(Boolean).join('  ');
      if (label) writeMeta(ctx, colors.dim(label));
      ctx.output.out(event.json ? `${prettyJson(event.value, colors)}\n` : `${visibleText(event.raw)}\n`);
    },
    streamEnd: (ctx, end) => writeMeta(ctx, colorsOf(ctx).dim(`-- ${describeStreamEnd(end)}`)),
    requestEnd: (outcome, ctx) => {
      if (outcome.tests) writeMeta(ctx, testLines(outcome.tests, palette(ctx.options.color), ctx.redact));
      if (outcome.error) printError(outcome);
    },
  };
}
