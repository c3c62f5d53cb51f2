/**
 * The body of a `.http` request: the lines after the headers' blank line, up to the next `###`.
 * A body is literal (`#` and `//` lines are body text, as in the reference tools), except for
 * what the tools give a meaning of their own:
 * - `< ./file`, `<@ ./file`, `<@latin1 ./file`: the file's bytes, or its text with `{{…}}`
 *   resolved, in that encoding (JetBrains, VS Code);
 * - `<> ./response.json`: a reference to a saved response (JetBrains): ignored;
 * - a pasted response (`HTTP/1.1 200 OK` …) after the request: ignored;
 * - `> {% … %}`, `> ./handler.js` (response handlers), `?? …` (httpyac assertions): recognised,
 *   never sent as body; running them belongs to the testing work, so for now they are refused.
 * Multipart bodies go on the wire with CRLF line ends (RFC 7578); form bodies continued on `&`
 * lines are joined.
 */
import { ParseError } from '../../core/errors/index.js';
import type { BodyPart, RequestSpec } from '../../core/model.js';

const INCLUDE = /^<(@([\w-]*))?\s+(\S.*?)\s*$/;
const RESPONSE_REFERENCE = /^<>\s/;
const PASTED_RESPONSE = /^HTTP\/\d(?:\.\d)?\s+\d{3}\b/;
const HANDLER = /^>\s*(\{%|\S)/;
const ASSERTION = /^\?\?\s/;

export interface BodyLines {
  lines: string[];
  /** 1-based line of `lines[0]`. */
  firstLine: number;
}

export type ParsedBody = Pick<RequestSpec, 'body' | 'bodyParts' | 'bodyLineEnding'>;

function contentType(headers: Record<string, string>): string {
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === 'content-type') return value.toLowerCase();
  return '';
}

function refuse(file: string, line: number, what: string): never {
  throw new ParseError(file, line, 1, `${what} are not supported yet`, {
    hint: 'reqflow does not run scripts or assertions yet; remove the line, or run this file with the tool it was written for until then',
  });
}

interface Line {
  text: string;
  lineNo: number;
}

/** Drops what is not body (response references, a pasted response) and refuses scripts and assertions. */
function bodyProper(body: BodyLines, file: string): Line[] {
  const lines: Line[] = [];
  for (let i = 0; i < body.lines.length; i++) {
    const line = body.lines[i] as string;
    const lineNo = body.firstLine + i;
    if (PASTED_RESPONSE.test(line) && lines.every((l) => l.text.trim() === '')) break; // the rest is a pasted response
    if (RESPONSE_REFERENCE.test(line)) continue;
    if (HANDLER.test(line)) refuse(file, lineNo, 'response handler scripts (> {% … %}, > ./file.js)');
    if (ASSERTION.test(line)) refuse(file, lineNo, 'httpyac assertions (?? …)');
    lines.push({ text: line, lineNo });
  }
  while (lines.length > 0 && (lines[lines.length - 1] as Line).text.trim() === '') lines.pop();
  return lines;
}

/** The body of one request, from the lines after its headers. */
export function parseBody(body: BodyLines, headers: Record<string, string>, file: string): ParsedBody {
  const lines = bodyProper(body, file);
  if (lines.length === 0) return {};
  const type = contentType(headers);
  const multipart = type.startsWith('multipart/');
  const eol = multipart ? '\r\n' : '\n';
  if (type.startsWith('application/x-www-form-urlencoded')) {
    // `a=1` then `&b=2` on the next line: one form, as the tools join it.
    return { body: lines.map(({ text }, i) => (i > 0 && /^\s*&/.test(text) ? text.trim() : (i > 0 ? '\n' : '') + text)).join('') };
  }
  const parts: BodyPart[] = [];
  let text: string[] = [];
  const flush = (last: boolean): void => {
    if (text.length > 0) parts.push({ kind: 'text', text: text.join(eol) + (last ? '' : eol) });
    text = [];
  };
  lines.forEach((line, i) => {
    const include = INCLUDE.exec(line.text);
    if (!include) {
      text.push(line.text);
      return;
    }
    flush(false);
    const part: BodyPart = { kind: 'file', path: include[3] as string, substitute: include[1] !== undefined, line: line.lineNo };
    if (include[2]) part.encoding = include[2];
    parts.push(part);
    // The line end after an included file belongs to the body text around it (multipart).
    if (i < lines.length - 1) parts.push({ kind: 'text', text: eol });
  });
  flush(true);
  const result: ParsedBody = {};
  if (multipart) result.bodyLineEnding = 'crlf';
  if (parts.every((part) => part.kind === 'text')) result.body = parts.map((part) => (part as { text: string }).text).join('');
  else result.bodyParts = parts;
  return result;
}
