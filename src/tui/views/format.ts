import type { ReqflowError } from '../../core/errors/index.js';
import { maskHeaders } from '../../core/mask.js';
import { palette, type Palette } from '../../report/render/colors.js';
import { displayWidth, layoutWidth } from '../wide-chars.js';
import { formatSize } from '../../report/render/describe.js';
import type { RequestPreview } from '../preview.js';
import { stripAnsi, type ResponseMeta } from '../response-capture.js';
import { visible, visibleLine } from '../../report/render/visible.js';

/**
 * The UI's colours: ANSI codes neo-blessed turns into cell attributes (`NO_COLOR` drops them
 * when drawn: no-color.ts). neo-blessed has no dim attribute, so hints and placeholders are grey.
 */
export const colors: Palette = { ...palette(true), dim: (text) => `\u001b[90m${text}\u001b[39m` };

/** Visible width of a text that may hold ANSI colour codes (wide characters count two). */
export function visibleLength(text: string): number {
  return displayWidth(stripAnsi(text));
}

/**
 * Text a project's files wrote (a request or file name, a URL, a header), for the screen: its
 * control characters made visible as a server's are — neo-blessed would apply an SGR code in a
 * request name, and `\x1b[8m` hides what follows it (`GET https://api.example.com\x1b[8m.evil.test`) —
 * and, unless `lines`, tabs as spaces (a tab is as wide as the terminal says).
 */
export function shown(text: string, lines = false): string {
  const safe = visible(text);
  return lines ? safe : safe.replace(/[\t\n]/g, ' ');
}

/** What neo-blessed's layout counts for a text that may hold ANSI colour codes (see layoutWidth). */
export function layoutLength(text: string): number {
  return layoutWidth(stripAnsi(text));
}

/** Cuts plain text to `width` columns as neo-blessed counts them (layoutWidth: an emoji 3), with an ellipsis. */
export function fit(text: string, width: number): string {
  if (layoutWidth(text) <= width) return text;
  const room = width <= 1 ? width : width - 1;
  let cut = '';
  let used = 0;
  for (const ch of text) {
    const w = layoutWidth(ch);
    if (used + w > room) break;
    cut += ch;
    used += w;
  }
  return width <= 1 ? cut : `${cut}…`;
}

/** Pads plain text with spaces to `width` columns as neo-blessed counts them (layoutWidth). */
export function padTo(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - layoutWidth(text)));
}

/** Wraps plain text at word boundaries to `width` columns; continuation lines get `indent`. */
export function wrap(text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if ([...candidate].length <= width || line.trim() === '') line = candidate;
    else {
      lines.push(line);
      line = `${indent}${word}`;
    }
  }
  lines.push(line);
  return lines;
}

/** The request pane: method and URL, headers, then the body. */
export function requestText(preview: RequestPreview, sent: boolean): string {
  const lines = [`${colors.method(shown(preview.method))} ${shown(preview.url)}`];
  for (const [name, value] of preview.headers) lines.push(`${colors.key(shown(name))}: ${shown(value)}`);
  if (preview.body !== undefined && preview.body !== '') lines.push('', shown(preview.body, true));
  const notes: string[] = [];
  if (preview.unresolved.length > 0) notes.push(colors.warn(`not defined yet: ${preview.unresolved.map((n) => `{{${n}}}`).join(', ')} (v lists variables)`));
  if (preview.deferred.length > 0) notes.push(colors.dim(`resolved when sent: ${preview.deferred.map((n) => `‹${n}›`).join(', ')}`));
  if (sent) notes.push(colors.dim('(sent)'));
  return [...lines, ...(notes.length > 0 ? ['', ...notes] : [])].join('\n');
}

/** ` 200 OK · 12 ms · 1.2 kB ` for the response pane's title. */
export function responseSummary(meta: ResponseMeta): string {
  const status = colors.status(meta.status, `${meta.status} ${visible(meta.statusText)}`.trim());
  return `${status} · ${Math.round(meta.durationMs)} ms · ${formatSize(meta.size)}`;
}

export function headersText(meta: ResponseMeta): string {
  const lines = [colors.dim(`HTTP/${meta.httpVersion} ${meta.status} ${visible(meta.statusText)}`.trim())];
  for (const [name, value] of Object.entries(maskHeaders(meta.headers))) {
    for (const item of Array.isArray(value) ? value : [value]) lines.push(`${colors.key(visible(name))}: ${visible(item)}`);
  }
  return lines.join('\n');
}

/**
 * The detail of an error: the message, the hint, and what `reqflow run` would exit with —
 * `exitUnrecorded`: a send from the history whose entry records no exit code, which is said instead.
 */
export function errorText(error: ReqflowError, scrub: (text: string) => string, exitUnrecorded = false): string {
  const lines = [colors.error(`✗ ${visibleLine(scrub(error.message))}`)];
  if (error.hint) lines.push(`${colors.dim('hint:')} ${visibleLine(scrub(error.hint))}`);
  lines.push('', colors.dim(exitUnrecorded ? '(the history recorded no exit code for this)' : `(reqflow run exits with ${error.exitCode} for this)`));
  return lines.join('\n');
}
