/**
 * An imported file to `.http` text (the dialect of docs/http-dialect.md). A body that the
 * dialect cannot hold as written — a trailing line break, a line the parser would read as a
 * comment, a separator or a file variable, `{{` in bytes that were not a template, binary —
 * goes to a file of its own beside the requests, included with `< ./file`, so what is sent is
 * always exactly the body that was imported. (`print-http.ts` prints parsed requests back; an
 * import has more to say: comments, scripts, bodies in files.)
 */
import { basename, dirname, join, posix, relative, sep } from 'node:path';
import { parseHttpText } from '../plugins/format-http/parse-http.js';
import type { ImportedBody, ImportedFile, ImportedRequest, MultipartPart } from './model.js';

export interface RenderedFile {
  /** Relative to the output folder. */
  path: string;
  content: string;
}

/**
 * Whether the body, written as text below the request, reads back as exactly this body: the
 * `.http` parser itself decides (a guess at its rules would drift from them).
 */
function inlineable(request: ImportedRequest, text: string, exact: boolean): boolean {
  if (text === '' || (exact && text.includes('{{'))) return false;
  // eslint-disable-next-line no-control-regex -- binary bytes belong in a file
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text)) return false;
  const head = [`POST http://import.invalid/`, ...request.headers.map(([name, value]) => `${name}: ${value}`)];
  try {
    const specs = parseHttpText([...head, '', text, ''].join('\n'), 'import.http');
    return specs.length === 1 && specs[0]?.bodyParts === undefined && specs[0]?.body === text;
  } catch {
    return false;
  }
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

function multipartLines(httpFile: string, boundary: string, parts: MultipartPart[]): string[] {
  const lines: string[] = [];
  for (const part of parts) {
    lines.push(`--${boundary}`, `Content-Disposition: form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`);
    if (part.contentType) lines.push(`Content-Type: ${part.contentType}`);
    lines.push('', 'file' in part.value ? `< ${includePath(httpFile, part.value.file)}` : part.value.text);
  }
  lines.push(`--${boundary}--`);
  return lines;
}

class FileRenderer {
  readonly extra: RenderedFile[] = [];

  constructor(
    private readonly outDir: string,
    private readonly file: ImportedFile,
  ) {}

  private get absolute(): string {
    return join(this.outDir, this.file.path);
  }

  private bodyLines(request: ImportedRequest, body: ImportedBody): string[] {
    if (body.kind === 'file') return [`< ${includePath(this.absolute, body.path)}`];
    if (body.kind === 'multipart') return multipartLines(this.absolute, body.boundary, body.parts);
    // A GraphQL query is the request's text, not bytes: it stays below the request line.
    if (request.method === 'GRAPHQL' || inlineable(request, body.text, body.exact)) return body.text.split('\n');
    const stem = basename(this.file.path, '.http');
    const path = posix.join(posix.dirname(this.file.path), `${stem}.bodies`, `${request.name}.${extensionOf(request)}`);
    this.extra.push({ path, content: body.text });
    // `<@` resolves {{…}} in the file as in the source; `<` sends its bytes as they are.
    return [`${body.exact ? '<' : '<@'} ${includePath(this.absolute, join(this.outDir, path))}`];
  }

  request(request: ImportedRequest): string[] {
    const lines = [`### ${request.title ?? request.name}`, `# @name ${request.name}`];
    for (const comment of request.comments) lines.push(...comment.split('\n').map((line) => `# ${line}`.trimEnd()));
    for (const [key, value] of request.annotations) lines.push(value === true ? `# @${key}` : `# @${key} ${typeof value === 'string' ? value : includePath(this.absolute, value.file)}`);
    if (request.preScript !== undefined) lines.push('< {%', request.preScript, '%}');
    lines.push(`${request.method} ${request.url}${request.http2 ? ' HTTP/2' : ''}`);
    for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
    if (request.body && !(request.body.kind === 'text' && request.body.text === '')) lines.push('', ...this.bodyLines(request, request.body));
    if (request.postScript !== undefined) lines.push('', '> {%', request.postScript, '%}');
    return lines;
  }

  render(): RenderedFile[] {
    const lines = this.file.header.map((line) => `# ${line}`.trimEnd());
    if (lines.length > 0) lines.push('');
    for (const request of this.file.requests) lines.push(...this.request(request), '');
    return [{ path: this.file.path, content: lines.join('\n') }, ...this.extra];
  }
}

/** The `.http` file and the body files it includes. */
export function renderHttpFile(file: ImportedFile, outDir: string): RenderedFile[] {
  return new FileRenderer(outDir, file).render();
}
