/**
 * `reqflow run --dry-run`: each request as it would go out — after variables, auth and
 * transforms — in `.http` form, secrets masked, and nothing sent.
 */
import { fieldLines } from '../core/headers.js';
import { displayHeaders, displayUrl } from '../core/mask.js';
import type { RequestSpec } from '../core/model.js';
import { visible, visibleText } from './render/visible.js';

export function dryRunText(spec: RequestSpec, redact: (text: string) => string): string {
  const lines = [`### ${visible(spec.name)}`, `${spec.method} ${visible(displayUrl(spec.url, redact))}`];
  for (const [name, value] of Object.entries(displayHeaders(spec.headers, redact))) for (const line of fieldLines(value)) lines.push(`${name}: ${visible(line)}`);
  if (spec.body !== undefined && spec.body.length > 0) {
    const text = typeof spec.body === 'string' ? spec.body : spec.body.toString('utf8');
    const binary = typeof spec.body !== 'string' && (text.includes('\uFFFD') || text.includes('\u0000'));
    lines.push('', binary ? `[binary body, ${spec.body.length} bytes]` : visibleText(redact(text)).replace(/\n$/, ''));
  }
  return `${lines.join('\n')}\n\n`;
}
