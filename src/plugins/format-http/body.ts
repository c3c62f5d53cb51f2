/**
 * The body of a `.http` request: the lines after the headers' blank line, up to the next `###`.
 * A body is sent as written, except for what the tools give a meaning of their own:
 * - `< ./file`, `<@ ./file`, `<@latin1 ./file`: the file's bytes, or its text with `{{…}}`
 *   resolved, in that encoding (JetBrains, VS Code);
 * - `<> ./response.json`: a reference to a saved response (JetBrains): ignored;
 * - a pasted response (`HTTP/1.1 200 OK` …) after the request: ignored;
 * - `> {% … %}`, `> ./handler.js` (JetBrains response handlers) and `?? …` (httpyac
 *   assertions): taken out of the body into the request's `chain` (run by `src/chain/`);
 * - `>> ./file`, `>>! ./file` (JetBrains: save the response): refused with the line, never sent;
 * - `@name = value`: a file variable (VS Code defines them on any line), for the requests below;
 * - `#` and `//` lines: comments, never body text (VS Code, httpyac, resterm; kulala alone sends
 *   them), except in a `text/markdown` body, where they are headings (httpyac); `# @key value`
 *   among them is an annotation of the request (httpyac, kulala, restcli read them there);
 * - `/* … *\/` comments after the body's last blank line, and `/*` … `*\/` on lines of their own anywhere (httpyac);
 * - httpyac's `{{ … }}` JavaScript blocks: run after the response, like handlers.
 * Multipart bodies go on the wire with CRLF line ends (RFC 7578); form bodies continued on `&`
 * lines are joined.
 */
import { ParseError } from '../../core/errors/index.js';
import { getHeader, type RequestHeaders } from '../../core/headers.js';
import type { BodyPart, ChainSpec, RequestSpec, ScriptSpec } from '../../core/model.js';
import { readScriptBlock } from './script-block.js';
import { blockCommentEnd, COMMENT, commentLine, FILE_VARIABLE, HTTPYAC_SCRIPT_START, readHttpyacScript, requestAnnotation, scriptPhase } from './line-forms.js';

export const INCLUDE = /^<(@([\w-]*))?\s+(\S.*?)\s*$/;
const RESPONSE_REFERENCE = /^<>\s/;
export const PASTED_RESPONSE = /^HTTP\/\d(?:\.\d)?\s+\d{3}\b/;
export const HANDLER = /^>\s*(\{%|\S)/;
const SAVE_RESPONSE = /^>>/;
const ASSERTION = /^\?\?\s+(\S.*?)\s*$/;

export interface BodyLines {
  lines: string[];
  /** 1-based line of `lines[0]`. */
  firstLine: number;
}

export type ParsedBody = Pick<RequestSpec, 'body' | 'bodyParts' | 'bodyLineEnding'> & {
  assertions?: NonNullable<ChainSpec['assertions']>;
  scripts?: ScriptSpec[];
  /** httpyac's file hooks (`{{+`, `{{+request`, `{{+response`) below the body: every request's, not this one's alone. */
  fileScripts?: ScriptSpec[];
  /** File variables defined among the body's lines, in order. */
  variables?: Array<[string, string]>;
  /** `# @key value` lines among the body's (httpyac, kulala, restcli): the request's annotations. */
  annotations?: BodyAnnotation[];
  /** The 1-based file line of each line of the body's text (see SourceLocation.bodyLines). */
  lineNumbers?: number[];
};

interface BodyAnnotation {
  key: string;
  value: string;
  line: number;
}

function contentType(headers: Readonly<RequestHeaders>): string {
  return getHeader(headers, 'content-type')?.toLowerCase() ?? '';
}

interface Line {
  text: string;
  lineNo: number;
}

interface BodyProper {
  lines: Line[];
  assertions: NonNullable<ChainSpec['assertions']>;
  scripts: ScriptSpec[];
  fileScripts: ScriptSpec[];
  variables: Array<[string, string]>;
  annotations: BodyAnnotation[];
}

/**
 * Drops what is not body (comments, response references, a pasted response) and takes out the
 * annotations, response handlers and assertions. The body ends at the first handler, as in JetBrains.
 */
function bodyProper(body: BodyLines, file: string, markdown: boolean): BodyProper {
  const lines: Line[] = [];
  const assertions: BodyProper['assertions'] = [];
  const scripts: ScriptSpec[] = [];
  const fileScripts: ScriptSpec[] = [];
  const variables: Array<[string, string]> = [];
  const annotations: BodyAnnotation[] = [];
  let ended = false;
  /** Lines before this index that start with `<> ` are body text (see {@link referencesEnd}). */
  let textUntil = -1;
  for (let i = 0; i < body.lines.length; i++) {
    const line = body.lines[i] as string;
    const lineNo = body.firstLine + i;
    // A status line below the request starts a pasted response, to the next ### (httpyac's inline response).
    if (!markdown && PASTED_RESPONSE.test(line)) break;
    if (i >= textUntil && RESPONSE_REFERENCE.test(line)) {
      const end = referencesEnd(body.lines, i);
      if (ended || end >= 0) {
        i = Math.max(end, i + 1) - 1;
        continue;
      }
      // `<> operator …` inside the body's text: text, as are the `<>` lines next to it.
      textUntil = nextTextLine(body.lines, i);
    }
    const variable = FILE_VARIABLE.exec(line);
    if (variable) {
      variables.push([variable[1] as string, variable[2] ?? '']);
      continue;
    }
    const httpyac = readHttpyacScript(body.lines, i, body.firstLine, file);
    if (httpyac) {
      if (httpyac.fileWide) fileScripts.push({ phase: scriptPhase(httpyac), ...httpyac.script });
      else scripts.push({ phase: httpyac.beforeSend ? 'request' : 'post', ...httpyac.script });
      i = httpyac.lastIndex;
      ended = true;
      continue;
    }
    if (SAVE_RESPONSE.test(line)) {
      throw new ParseError(file, lineNo, 1, 'saving the response to a file (>> ./file) is not supported yet', { hint: 'remove the line and use: reqflow run … -o raw > file' });
    }
    const assertion = ASSERTION.exec(line);
    if (assertion) {
      assertions.push({ text: assertion[1] as string, line: lineNo });
      ended = true;
      continue;
    }
    if (HANDLER.test(line)) {
      const block = readScriptBlock(body.lines, i, body.firstLine, file, '>');
      scripts.push({ phase: 'post', ...block.script });
      i = block.lastIndex;
      ended = true;
      continue;
    }
    // httpyac's `/*` and `*/` alone on their lines: a comment anywhere in the body, blank line before it or not.
    const close = !ended && !markdown && /^\s*\/\*\s*$/.test(line) ? body.lines.findIndex((text, at) => at > i && /^\s*\*\/\s*$/.test(text)) : -1;
    if (close > 0) {
      i = close;
      continue;
    }
    if (!ended) {
      if (markdown || !COMMENT.test(line)) {
        // Blank lines before the body are not body (JetBrains trims them, httpyac skips them).
        if (lines.length > 0 || line.trim() !== '') lines.push({ text: line, lineNo });
        continue;
      }
      const annotation = requestAnnotation(line);
      if (annotation) annotations.push({ ...annotation, line: lineNo });
    } else if (blockCommentEnd(body.lines, i, body.firstLine, file) !== undefined) i = blockCommentEnd(body.lines, i, body.firstLine, file) as number;
    else if (/^\s*(#|\/\/)\s*@\w/.test(line)) {
      throw new ParseError(file, lineNo, 1, `annotation after the response checks: ${line.trim().slice(0, 60)}`, { hint: 'annotations (# @name, # @capture, …) go above the request line' });
    } else if (line.trim() !== '' && !COMMENT.test(line)) {
      throw new ParseError(file, lineNo, 1, `unexpected text after the response handler or assertion: ${line.trim().slice(0, 60)}`, { hint: 'the body goes before "> {% … %}" and "?? …" lines; start a new request with ###' });
    }
  }
  trimEnd(lines);
  // Last `/* … *\/` paragraphs, after a blank line, are not body text (httpyac).
  for (let start = trailingComments(lines); start > 0 && start < lines.length && (lines[start - 1] as Line).text.trim() === ''; start = trailingComments(lines)) {
    lines.length = start;
    trimEnd(lines);
  }
  return { lines, assertions, scripts, fileScripts, variables, annotations };
}

/** The first line from `i` on that is neither blank nor a `<> ` line. */
function nextTextLine(lines: readonly string[], i: number): number {
  let j = i;
  while (j < lines.length && (RESPONSE_REFERENCE.test(lines[j] as string) || (lines[j] as string).trim() === '')) j++;
  return j;
}

/**
 * JetBrains' response references (`<> 2024-01-01T120000.200.json`) follow the request: the `<> `
 * lines from `i` are references when nothing but blank lines, comments, handlers, checks or a
 * pasted response (or a `/* … *\/` comment) comes after them — then the index past them; -1 when body text goes on after
 * them (`<> operator is the diamond` inside a body is text). A file variable after them is no text.
 */
function referencesEnd(lines: readonly string[], i: number): number {
  const j = nextTextLine(lines, i);
  const after = lines[j];
  return after === undefined || HANDLER.test(after) || ASSERTION.test(after) || commentLine(after) || FILE_VARIABLE.test(after) || PASTED_RESPONSE.test(after) || HTTPYAC_SCRIPT_START.test(after) ? j : -1;
}

/** Where the `/* … *\/` comments at the end of `lines` start (`lines.length` when it ends otherwise). */
function trailingComments(lines: readonly Line[]): number {
  let start = lines.length;
  for (;;) {
    const last = lines[start - 1]?.text;
    if (last === undefined) return start;
    if (last.includes('*/')) {
      let open = start - 1;
      while (open >= 0 && !(lines[open] as Line).text.trimStart().startsWith('/*')) open--;
      if (open < 0) return start;
      start = open;
    } else return start;
  }
}

function trimEnd(lines: Line[]): void {
  while (lines.length > 0 && (lines[lines.length - 1] as Line).text.trim() === '') lines.pop();
}

/** The body of one request, from the lines after its headers. */
export function parseBody(body: BodyLines, headers: Readonly<RequestHeaders>, file: string): ParsedBody {
  const { lines, assertions, scripts, fileScripts, variables, annotations } = bodyProper(body, file, contentType(headers).startsWith('text/markdown'));
  const checks: Pick<ParsedBody, 'assertions' | 'scripts' | 'fileScripts' | 'variables' | 'annotations' | 'lineNumbers'> = {};
  if (assertions.length > 0) checks.assertions = assertions;
  if (scripts.length > 0) checks.scripts = scripts;
  if (fileScripts.length > 0) checks.fileScripts = fileScripts;
  if (variables.length > 0) checks.variables = variables;
  if (annotations.length > 0) checks.annotations = annotations;
  if (lines.length > 0) checks.lineNumbers = lines.map(({ lineNo }) => lineNo);
  return { ...bodyOf(lines, headers, file), ...checks };
}

/**
 * rest.nvim's form over lines ending in `&` (`key = value &`): the pairs, trimmed around `=` and `&`.
 * A line break not beside an `&` would be part of a value there (VS Code sends `%0A`): refused.
 */
function spacedForm(lines: readonly Line[], file: string): string {
  const bad = lines.find(({ text }, i) => i > 0 && !/&\s*$/.test((lines[i - 1] as Line).text) && !/^\s*&/.test(text));
  if (bad) throw new ParseError(file, bad.lineNo, 1, 'form body line does not follow an "&": is the line break part of a value?', { hint: 'end every line of a form written over lines with &' });
  return lines.map(({ text }) => text).join('\n').split('&').map((pair) => trimmedAroundEquals(pair.trim())).join('&');
}

/** `key = value` → `key=value` at its first `=` (without a pattern: `\s*=` tried a long run of spaces from each of its characters). */
function trimmedAroundEquals(pair: string): string {
  const at = pair.indexOf('=');
  return at < 0 ? pair : `${pair.slice(0, at).trimEnd()}=${pair.slice(at + 1).trimStart()}`;
}

function bodyOf(lines: Line[], headers: Readonly<RequestHeaders>, file: string): Pick<RequestSpec, 'body' | 'bodyParts' | 'bodyLineEnding'> {
  if (lines.length === 0) return {};
  const type = contentType(headers);
  const multipart = type.startsWith('multipart/');
  const eol = multipart ? '\r\n' : '\n';
  // `< ./form.txt` in a form body is the body read from that file, as everywhere else.
  if (type.startsWith('application/x-www-form-urlencoded') && !lines.some((line) => INCLUDE.test(line.text))) {
    if (lines.some(({ text }, i) => i < lines.length - 1 && /&\s*$/.test(text))) return { body: spacedForm(lines, file) };
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
  const result: Pick<RequestSpec, 'body' | 'bodyParts' | 'bodyLineEnding'> = {};
  if (multipart) result.bodyLineEnding = 'crlf';
  if (parts.every((part) => part.kind === 'text')) result.body = parts.map((part) => (part as { text: string }).text).join('');
  else result.bodyParts = parts;
  return result;
}
