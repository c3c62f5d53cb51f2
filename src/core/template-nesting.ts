import { UsageError } from './errors/index.js';

/**
 * The whole `{{host.{{env}}}}` when the template `match` of `text` sits inside another one (Postman
 * resolves the inner name first, then the outer), else undefined. reqflow resolves the inner one
 * only, and would send the outer braces as text. `{{{name}}}` is no such thing.
 */
export function enclosingTemplate(text: string, match: RegExpMatchArray): string | undefined {
  const at = match.index ?? 0;
  const opened = at >= 2 ? text.lastIndexOf('{{', at - 2) : -1;
  if (opened < 0 || opened < text.lastIndexOf('}}', at - 1)) return undefined;
  const closed = text.indexOf('}}', at + match[0].length);
  return closed < 0 ? undefined : text.slice(opened, closed + 2);
}

/** Exit 2: never sent with its outer braces as text. `where` names the request (` in request "x"`). */
export function nestedTemplateError(outer: string, where: string): UsageError {
  return new UsageError(`a template inside a template (${outer}) is not supported${where}`, {
    hint: 'give the inner name\'s value a variable of its own, or write the name out',
    atRequest: true,
  });
}
