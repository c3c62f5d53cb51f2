import { UsageError } from './errors/index.js';

/** Where a template that sits inside another is: the whole outer one and its offset in the text. */
export interface EnclosingTemplate {
  outer: string;
  opened: number;
}

/**
 * The whole `{{host.{{env}}}}` when the template `match` of `text` sits inside another one (Postman
 * resolves the inner name first, then the outer), else undefined. reqflow resolves the inner one
 * only, and would send the outer braces as text. `{{{name}}}` is no such thing.
 */
export function enclosingTemplate(text: string, match: RegExpMatchArray): EnclosingTemplate | undefined {
  const at = match.index ?? 0;
  const opened = at >= 2 ? text.lastIndexOf('{{', at - 2) : -1;
  if (opened < 0 || opened < text.lastIndexOf('}}', at - 1)) return undefined;
  const closed = text.indexOf('}}', at + match[0].length);
  return closed < 0 ? undefined : { outer: text.slice(opened, closed + 2), opened };
}

/** The longest excerpt of the outer template quoted: a body's `{{` may run over many lines to a `}}` far below. */
const EXCERPT = 60;

/**
 * What to ask `writtenAt` for to find the outer template's own line: its text up to the inner
 * one's end, which closes it as written. The inner name alone may be written first elsewhere (the
 * URL), far from the outer `{{`.
 */
export function outerExpression(text: string, match: RegExpMatchArray, enclosing: EnclosingTemplate): string {
  return text.slice(enclosing.opened + 2, (match.index ?? 0) + match[0].length - 2);
}

/**
 * Exit 2: never sent with its outer braces as text. `where` names the request (` in request "x"`);
 * `outerAt` is `file:line` where the outer template opens, when it can be told. Otherwise the
 * request's line is named.
 */
export function nestedTemplateError(enclosing: EnclosingTemplate, where: string, outerAt: string | undefined): UsageError {
  const oneLine = enclosing.outer.replace(/\s+/g, ' ');
  const excerpt = oneLine.length > EXCERPT ? `${oneLine.slice(0, EXCERPT - 1)}…` : oneLine;
  const place = outerAt === undefined ? '' : `${outerAt}: `;
  return new UsageError(`${place}a template inside a template (${excerpt}) is not supported${where}`, {
    hint: 'give the inner name\'s value a variable of its own, or write the name out',
    atRequest: true,
  });
}
