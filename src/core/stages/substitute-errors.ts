/**
 * The words of core-substitute's errors, imported only when a request has one: a header value
 * or a URL that a variable made unsendable (exit 3), a port out of range (exit 2). Each names
 * the request's line and the templates the text came from; an error in a profile's or a tool
 * config's header is put after the file and field that header is written in.
 */
import { isReqflowError, ReqflowError, UsageError, VariableError } from '../errors/index.js';
import { codePointName } from '../code-point.js';
import { NON_ASCII_HINT } from '../headers.js';
import { displayUrl } from '../mask.js';
import { outsideTemplates, templateExpressions } from '../variables.js';
import type { RequestContext } from '../../pipeline/context.js';

/** What made a resolved URL unsendable (see substitute.ts). */
export type UrlProblem = { port: string } | { twice: true } | { bad: string } | { moved: string } | { fragment: true };

const templatesOf = (written: string): string[] => templateExpressions(written).map((expression) => `{{${expression}}}`);

/**
 * A variable whose value holds a line break would split the request into two (header
 * injection, a token read with its newline); another control character (or one past ASCII)
 * cannot be sent either: exit 3 naming the header and the variables.
 */
export function headerValueError(ctx: RequestContext, name: string, written: string, value: string, bad: string): VariableError {
  const templates = templatesOf(written);
  const what = /[\r\n\0]/.test(value) ? 'a line break' : `a character a header cannot hold (${codePointName(bad)})`;
  return new VariableError(`header ${name} of request "${ctx.spec.name}" would contain ${what}${templates.length > 0 ? `, from ${templates.join(', ')}` : ''}`, {
    hint: /[\r\n\0]/.test(value) || bad < '\u0080' ? 'a header value is one line of visible characters: check where the variable comes from (a file read with its trailing newline?)' : NON_ASCII_HINT,
    atRequest: true,
  });
}

/**
 * `http://localhost:99999`: exit 2 naming the request's line. A tab or line break a variable
 * puts in the URL (the URL parser would drop it silently, a raw target cannot carry it), or a
 * whole origin put after a scheme: exit 3. With the templates the URL came from.
 */
export function urlError(ctx: RequestContext, written: string, problem: UrlProblem): UsageError | VariableError {
  const templates = templatesOf(written);
  const from = templates.length > 0 ? `, from ${templates.join(', ')}` : '';
  const line = `${ctx.spec.source.file}:${ctx.spec.source.line}`;
  if ('port' in problem) return new UsageError(`${line}: port ${problem.port} is out of range (1–65535) in ${displayUrl(ctx.spec.url, ctx.redact)}${from}`);
  const where = `${line}: the URL of request "${ctx.spec.name}" would`;
  if ('moved' in problem) {
    return new VariableError(`${where} go to host ${problem.moved}, not the one the file writes${from}`, { hint: 'a value written after the host may lengthen it or add a path (/…), never put user info (…@) before it: nothing was sent' });
  }
  if ('fragment' in problem) {
    return new VariableError(`${where} be cut at a # from a value${from}: what follows it would not be sent`, { hint: 'send the value encoded with {{%name}} (# as %23), or write the fragment in the file: nothing was sent' });
  }
  if ('twice' in problem) return new VariableError(`${where} start with two schemes${from}`, { hint: 'the variable holds a whole origin (https://…): put it first on the request line, e.g. GET {{origin}}/path' });
  // Written in the file itself (not from a value): the file's error, exit 2, blaming no variable.
  if (outsideTemplates(written).includes(problem.bad)) {
    return new UsageError(`${line}: the URL of request "${ctx.spec.name}" contains a control character (${codePointName(problem.bad)})`, { hint: 'encode it in the URL (%09 for a tab), or remove it' });
  }
  return new VariableError(`${where} contain a control character (${codePointName(problem.bad)})${from}`, {
    hint: 'encode it in the value (%09 for a tab), or check where the variable comes from (a file read with its trailing newline?)',
  });
}

/**
 * An error in the value of a header the request did not write: `origin` is where it is written
 * (`/p/.httpyac.json: "defaultHeaders".Cookie`), put first as a request file's errors put its line.
 */
export function fromHeaderOrigin(error: unknown, origin: string): unknown {
  if (!isReqflowError(error)) return error;
  return new ReqflowError(`${origin}: ${error.message}`, { exitCode: error.exitCode, ...(error.hint === undefined ? {} : { hint: error.hint }), cause: error });
}
