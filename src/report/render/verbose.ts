/**
 * What `-v` adds to pretty output: the request as sent, the response headers, and after the body
 * the trailer fields that came with it. Loaded only by a run with `-v`.
 */
import { headersAsSent } from '../../core/headers.js';
import { displayHeaders, displayUrl } from '../../core/mask.js';
import type { RequestView, ResponseView } from '../reporter.js';
import type { Palette } from './colors.js';
import { visible } from './visible.js';

function headerLines(headers: Record<string, string | string[]>, colors: Palette, redact: (text: string) => string): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(displayHeaders(headers, redact))) {
    for (const item of Array.isArray(value) ? value : [value]) lines.push(`${colors.key(visible(name))}: ${visible(item)}`);
  }
  return lines;
}

/** Longest request body `-v` shows; the rest is summarised (bodies can be uploads). */
const VERBOSE_BODY_LIMIT = 4096;

/** `-v`: the request as sent (secrets masked), its body (known secret values redacted), then a blank line. */
export function verboseRequest(ctx: ResponseView, colors: Palette): string {
  const lines = [`${colors.method(visible(ctx.spec.method))} ${visible(displayUrl(ctx.spec.url, ctx.redact))}`, ...headerLines(headersAsSent(ctx.spec.headers, ctx.response?.httpVersion, ctx.response?.cookieSent), colors, ctx.redact)];
  // A large file sent as it is read is named, not read; other bytes (a body with files) are shown when they are text, binary bodies summarised.
  const file = ctx.spec.bodyFile?.stillBodyOf(ctx.spec);
  const raw = file ? file.placeholder : ctx.spec.body;
  const body = raw === undefined || typeof raw === 'string' ? raw : raw.subarray(0, 8000).includes(0) ? `[${raw.length} bytes of binary data]` : raw.toString('utf8');
  if (body !== undefined && body !== '') {
    const shown = body.length > VERBOSE_BODY_LIMIT ? `${body.slice(0, VERBOSE_BODY_LIMIT)}\n${colors.dim(`… ${Buffer.byteLength(body) - Buffer.byteLength(body.slice(0, VERBOSE_BODY_LIMIT))} more bytes`)}` : body;
    lines.push('', visible(ctx.redact(shown)));
  }
  return `${lines.join('\n')}\n\n`;
}

export function verboseResponseHeaders(ctx: ResponseView, colors: Palette): string {
  return ctx.response ? `${headerLines(ctx.response.headers, colors, ctx.redact).join('\n')}\n\n` : '';
}

/** The trailer fields sent after the body (HTTP/1.1 chunked, HTTP/2), shown and masked as headers are, under a `trailers:` line. */
export function verboseTrailers(ctx: RequestView, colors: Palette): string {
  return `${colors.dim('trailers:')}\n${headerLines(ctx.response?.trailers ?? {}, colors, ctx.redact).join('\n')}\n`;
}
