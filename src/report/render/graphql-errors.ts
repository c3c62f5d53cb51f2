import type { Palette } from './colors.js';
import type { GraphqlErrorShape as GraphqlError } from '../reporter.js';
import { visibleLine } from './visible.js';

/** `1:44, 3:5` */
function locationsText(error: GraphqlError): string | undefined {
  if (!Array.isArray(error.locations) || error.locations.length === 0) return undefined;
  return error.locations.map((l) => `${String(l.line ?? '?')}:${String(l.column ?? '?')}`).join(', ');
}

/** `user.posts.0.title` */
function pathText(error: GraphqlError): string | undefined {
  return Array.isArray(error.path) && error.path.length > 0 ? error.path.map(String).join('.') : undefined;
}

/**
 * GraphQL errors formatted for reading, one block per error (locations and path only when the
 * server sent them: a path may come without locations). Every field is the server's text, shown
 * as one line with its controls visible: a location may be any JSON value (an escape sequence
 * in `line` ran), and a line feed in a message would print a line that reads as reqflow's own.
 *
 *   error: ratings are disabled
 *     at 1:44
 *     path: user.posts.0.rating
 *     code: FORBIDDEN
 */
export function formatGraphqlErrors(errors: readonly GraphqlError[], colors: Palette): string {
  const blocks = errors.map((error) => {
    const message = typeof error.message === 'string' ? error.message : JSON.stringify(error.message ?? error);
    const lines = [`${colors.error('error:')} ${visibleLine(message)}`];
    const at = locationsText(error);
    if (at) lines.push(`  at ${visibleLine(at)}`);
    const path = pathText(error);
    if (path) lines.push(`  path: ${visibleLine(path)}`);
    const code = error.extensions?.code;
    if (typeof code === 'string' || typeof code === 'number') lines.push(`  code: ${visibleLine(String(code))}`);
    return lines.join('\n');
  });
  return `${blocks.join('\n')}\n`;
}
