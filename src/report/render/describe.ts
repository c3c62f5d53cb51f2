import type { ResponseView } from '../reporter.js';
import type { Palette } from './colors.js';
import { visible } from './visible.js';

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `HTTP/1.1 200 OK  12 ms` */
export function statusLine(ctx: ResponseView, colors: Palette): string {
  const res = ctx.response;
  if (!res) return '';
  const status = colors.status(res.status, `${res.status} ${visible(res.statusText)}`.trim());
  return `${colors.dim(`HTTP/${res.httpVersion}`)} ${status}  ${colors.dim(`${Math.round(res.durationMs)} ms`)}`;
}
