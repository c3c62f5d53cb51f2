/**
 * An imported file to `.http` text (the dialect of docs/http-dialect.md). A body that the
 * dialect cannot hold as written — a trailing line break, a line the parser would read as a
 * comment, a separator or a file variable, `{{` in bytes that were not a template, binary —
 * goes to a file of its own beside the requests, included with `< ./file`, so what is sent is
 * always exactly the body that was imported. (`print-http.ts` prints parsed requests back; an
 * import has more to say: comments, scripts, bodies in files.)
 */
import { basename, dirname, join, posix, relative, sep } from 'node:path';
import { UsageError } from '../core/errors/index.js';
import { parseHttpText } from '../plugins/format-http/parse-http-text.js';
import { encodedTarget, hasHeaderControl, isToken } from './http-text.js';
import type { ImportedBody, ImportedFile, ImportedRequest, MultipartPart } from './model.js';
import { fileName, UniqueNames } from './names.js';
import { visible } from '../report/render/visible.js';

export interface RenderedFile {
  /** Relative to the output folder. */
  path: string;
  /** Text, or the bytes of a body that is no text. */
  content: string | Buffer;
}

/**
 * Whether the body, written as text below the request, reads back as exactly this body: the
 * `.http` parser itself decides (a guess at its rules would drift from them).
 */
function inlineable(headers: ImportedRequest['headers'], text: string, exact: boolean): boolean {
  if (text === '' || (exact && text.includes('{{'))) return false;
  // eslint-disable-next-line no-control-regex -- binary bytes belong in a file
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text)) return false;
  const head = [`POST http://import.invalid/`, ...headers.map(([name, value]) => `${name}: ${value}`)];
  try {
    const specs = parseHttpText([...head, '', text, ''].join('\n'), 'import.http');
    return specs.length === 1 && specs[0]?.bodyParts === undefined && specs[0]?.chain === undefined && specs[0]?.body === text;
  } catch {
    return false;
  }
}

/**
 * Text from the imported document is written into lines of the `.http` file: a line break in a
 * name, a URL or a header value would start a line the parser reads as something else — a
 * request line or a header the document never had (a collection named `a\nPOST https://evil/
 * \nX-Token: {{token}}`). Comments are split into comment lines; anything else refused.
 */
const LINE_BREAK = /\r\n|[\r\n\u2028\u2029\u0085]/;

/**
 * A document's names and notes in comment lines, a title or `# @name`: their control characters
 * made visible (ESC as ␛), as reqflow shows them on a terminal — a generated file holds no escape
 * sequence for `cat` or an editor's terminal to act on.
 */
function commentLines(text: string): string[] {
  return text.split(LINE_BREAK).map((line) => `# ${visible(line)}`.trimEnd());
}

/** `text` as it is, or exit 2 naming the file, the request and the field. */
function oneLine(text: string, file: ImportedFile, request: ImportedRequest, what: string): string {
  if (!LINE_BREAK.test(text)) return text;
  throw new UsageError(`${file.path}: request ${JSON.stringify(request.title ?? request.name)}: ${what} holds a line break, which a request file line cannot hold: nothing was written`, {
    hint: 'correct it in the document imported (a header value or URL with a line break could not be sent anyway)',
  });
}

/** `./x` or `../x`, with `/`, from the request file's folder. */
function includePath(httpFile: string, target: string): string {
  const path = relative(dirname(httpFile), target).split(sep).join(posix.sep);
  return path.startsWith('../') ? path : `./${path}`;
}

function extensionOf(request: ImportedRequest): string {
  const type = request.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  if (/json/i.test(type)) return 'json';
  if (/xml/i.test(type)) return 'xml';
  if (/x-www-form-urlencoded/i.test(type)) return 'form';
  return 'txt';
}

/** Headers under which a text reads as plain text: no GraphQL, form or multipart reading of its own. */
const PLAIN: ImportedRequest['headers'] = [['Content-Type', 'text/plain']];

/**
 * Whether a multipart text part's value may stand as its line: one line (the body goes out with
 * CRLF line ends, so a line break in it would change) that the parser reads back as itself — not
 * `< /etc/hostname`, `###`, a comment or `> {%`.
 */
function partInline(text: string, exact: boolean): boolean {
  return text === '' || (!LINE_BREAK.test(text) && inlineable(PLAIN, text, exact));
}

/** The lines of a multipart body; `beside` writes a text part's value to a file of its own, returning its include line. */
function multipartLines(httpFile: string, body: Extract<ImportedBody, { kind: 'multipart' }>, line: (text: string, what: string) => string, beside: (text: string) => string): string[] {
  const lines: string[] = [];
  for (const part of body.parts) {
    const what = `multipart part "${part.name}"`;
    lines.push(`--${body.boundary}`, line(`Content-Disposition: form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`, `the name or file name of ${what}`));
    if (part.contentType) lines.push(line(`Content-Type: ${part.contentType}`, `the Content-Type of ${what}`));
    const value = 'file' in part.value ? `< ${includePath(httpFile, part.value.file)}` : partInline(part.value.text, body.exact) ? part.value.text : beside(part.value.text);
    lines.push('', value);
  }
  lines.push(`--${body.boundary}--`);
  return lines;
}

/** `lines` with `more` appended, one by one: a spread of a body of 150,000 lines overflows the call stack. */
function append(lines: string[], more: readonly string[]): void {
  for (const item of more) lines.push(item);
}

/**
 * A GraphQL request as Postman sends it, `POST` of `{"query": …, "variables": …}`: for a query that
 * the `GRAPHQL` form cannot hold as written (a `###` or `> {%` line in it would be a request or a
 * script of its own).
 */
function graphqlAsJson(request: ImportedRequest, text: string, where: string): ImportedRequest {
  const { query, variables } = request.graphql ?? { query: text, variables: '' };
  let parsed: unknown;
  try {
    parsed = variables === '' ? undefined : JSON.parse(variables);
  } catch {
    throw new UsageError(`${where}: its GraphQL variables are not JSON, and its query cannot be written as a GRAPHQL request: nothing was written`, { hint: 'correct the variables in the document imported' });
  }
  const json = JSON.stringify(parsed === undefined ? { query } : { query, variables: parsed });
  return { ...request, method: 'POST', headers: [...request.headers, ['Content-Type', 'application/json']], body: { kind: 'text', text: json, exact: false } };
}

class FileRenderer {
  readonly extra: RenderedFile[] = [];
  /**
   * The names of the body files beside this file, from one allocator: a part file `upload-2` and
   * the body of a request named `upload-2` (the second `upload`) would otherwise be one file.
   */
  private readonly besideNames = new UniqueNames();

  constructor(
    private readonly outDir: string,
    private readonly file: ImportedFile,
  ) {}

  private get absolute(): string {
    return join(this.outDir, this.file.path);
  }

  private bodyLines(request: ImportedRequest, body: ImportedBody): string[] {
    if (body.kind === 'file') return [`< ${includePath(this.absolute, body.path)}`];
    // Bytes that are no text are `.bin`, whatever type they were sent as (docs/import.md): an editor opening a `.json` of them would change them.
    if (body.kind === 'bytes') return [`< ${includePath(this.absolute, join(this.outDir, this.besideFile(request, body.bytes, request.name, 'bin')))}`];
    if (body.kind === 'multipart') {
      let count = 0;
      // A part's value that would be read as syntax: its bytes in a file of its own (`<@` resolves the source's templates).
      const beside = (text: string): string => `${body.exact ? '<' : '<@'} ${includePath(this.absolute, join(this.outDir, this.besideFile(request, text, `${request.name}-${++count}`, 'txt')))}`;
      return multipartLines(this.absolute, body, (text, what) => oneLine(text, this.file, request, what), beside);
    }
    // A GraphQL query is the request's text, not bytes: it stays below the request line (checked by request()).
    if (request.method === 'GRAPHQL' || inlineable(request.headers, body.text, body.exact)) return body.text.split('\n');
    // `<@` resolves {{…}} in the file as in the source; `<` sends its bytes as they are.
    return [`${body.exact ? '<' : '<@'} ${includePath(this.absolute, join(this.outDir, this.besideFile(request, body.text)))}`];
  }

  /** A body written to `FILE.bodies/NAME.ext` beside the request file (`NAME-2.ext` if that name is taken); its path in the output folder. */
  private besideFile(request: ImportedRequest, content: string | Buffer, name = request.name, extension = extensionOf(request)): string {
    const stem = basename(this.file.path, '.http');
    const path = posix.join(posix.dirname(this.file.path), `${stem}.bodies`, `${this.besideNames.take(fileName(name, 'body'))}.${extension}`);
    this.extra.push({ path, content });
    return path;
  }

  /** A script block's code: `%}` anywhere in it would end the block there (script-block.ts). */
  private script(request: ImportedRequest, code: string, what: string): string {
    if (code.includes('%}')) throw new UsageError(`${this.file.path}: request ${JSON.stringify(request.title ?? request.name)}: its ${what} holds "%}", which would end the script block early: nothing was written`, { hint: 'write %} differently in the script (\'%\' + \'}\')' });
    return code;
  }

  /**
   * Exit 2 naming the request for what no `.http` line can hold as the source has it: a method or
   * a header name that is not an HTTP token (`GET http://elsewhere/?` as a method would send the
   * request elsewhere; a header `< /etc/passwd: x` would be a body include, `# @note: x` a comment).
   */
  private checkTokens(request: ImportedRequest): void {
    const where = `${this.file.path}: request ${JSON.stringify(request.title ?? request.name)}`;
    const shown = (text: string): string => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
    if (!isToken(request.method)) throw new UsageError(`${where}: its method ${shown(request.method)} is not an HTTP method (letters, digits and !#$%&'*+-.^_\`|~ only): nothing was written`, { hint: 'correct the method in the document imported' });
    const bad = request.headers.find(([name]) => !isToken(name));
    if (bad) throw new UsageError(`${where}: its header name ${shown(bad[0])} is not an HTTP header name (letters, digits and !#$%&'*+-.^_\`|~ only): nothing was written`, { hint: 'correct or remove the header in the document imported' });
    // A control character (an escape sequence) no header can carry: refused here, not written into the file for a run to refuse.
    const control = request.headers.find(([, value]) => hasHeaderControl(value));
    if (control) throw new UsageError(`${where}: its header ${shown(control[0])} holds a control character, which a header cannot carry: nothing was written`, { hint: 'correct or remove the header in the document imported' });
  }

  request(written: ImportedRequest): string[] {
    this.checkTokens(written);
    // A GraphQL query that would not read back as written goes as the JSON Postman sends.
    const graphqlText = written.method === 'GRAPHQL' && written.body?.kind === 'text' ? written.body.text : undefined;
    const request = graphqlText !== undefined && !inlineable(PLAIN, graphqlText, false) ? graphqlAsJson(written, graphqlText, `${this.file.path}: request ${JSON.stringify(written.title ?? written.name)}`) : written;
    const line = (text: string, what: string): string => oneLine(text, this.file, request, what);
    // The title is a name only: its line breaks become spaces.
    const lines = [`### ${visible((request.title ?? request.name).split(LINE_BREAK).join(' '))}`, `# @name ${visible(line(request.name, 'its name'))}`];
    for (const comment of request.comments) append(lines, commentLines(comment));
    for (const [key, value] of request.annotations) lines.push(line(value === true ? `# @${key}` : `# @${key} ${typeof value === 'string' ? value : includePath(this.absolute, value.file)}`, `the annotation @${key}`));
    if (request.preScript !== undefined) lines.push('< {%', this.script(request, request.preScript, 'pre-request script'), '%}');
    lines.push(line(`${request.method} ${encodedTarget(request.url)}${request.http2 ? ' HTTP/2' : ''}`, 'its method or URL'));
    for (const [name, value] of request.headers) lines.push(line(`${name}: ${value}`, `header "${name.split(LINE_BREAK).join(' ')}"`));
    if (request.body && !(request.body.kind === 'text' && request.body.text === '')) {
      lines.push('');
      append(lines, this.bodyLines(request, request.body));
    }
    if (request.postScript !== undefined) lines.push('', '> {%', this.script(request, request.postScript, 'response script'), '%}');
    return lines;
  }

  render(): RenderedFile[] {
    const lines = this.file.header.flatMap(commentLines);
    if (lines.length > 0) lines.push('');
    for (const request of this.file.requests) {
      append(lines, this.request(request));
      lines.push('');
    }
    return [{ path: this.file.path, content: lines.join('\n') }, ...this.extra];
  }
}

/** The `.http` file and the body files it includes. */
export function renderHttpFile(file: ImportedFile, outDir: string): RenderedFile[] {
  return new FileRenderer(outDir, file).render();
}
