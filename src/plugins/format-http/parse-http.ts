import { ParseError } from '../../core/errors/index.js';
import type { RequestSpec } from '../../core/model.js';

// `s`: a lone CR (not before LF) is content, and `.` alone would not match it.
const SEPARATOR = /^###(.*)$/s;
const ANNOTATION = /^\s*(?:#|\/\/)\s*@([A-Za-z_][\w.-]*)(?:\s+(.*?))?\s*$/s;
const COMMENT = /^\s*(#|\/\/)/;
const METHOD = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
const STANDARD_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT']);

interface Block {
  name?: string;
  /** 1-based line of the first line in `lines`. */
  firstLine: number;
  lines: string[];
  /** Starts with `###` (so even an empty block is a request the user meant to write). */
  explicit: boolean;
}

/**
 * Parses the HTTP text format: `### name`, `# @key value` annotations, the request line,
 * headers, a blank line, the body up to the next `###`. Errors name file, line and column.
 */
export function parseHttpText(text: string, file: string): RequestSpec[] {
  if (text.includes('\u0000')) throw new ParseError(file, 1, 1, 'not a text file (it contains NUL bytes)', { hint: 'request files are UTF-8 text' });
  // `\r\r\n` (a CRLF file converted twice) ends a line like `\r\n`: a CR before LF is never content.
  const lines = text.replace(/^\uFEFF/, '').split(/\r*\n/);
  const requests: RequestSpec[] = [];
  for (const block of splitBlocks(lines)) {
    const spec = parseBlock(block, file, requests.length + 1);
    if (spec) requests.push(spec);
  }
  return requests;
}

function splitBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [{ firstLine: 1, lines: [], explicit: false }];
  lines.forEach((line, index) => {
    const separator = SEPARATOR.exec(line);
    if (separator) {
      const name = (separator[1] ?? '').replace(/^#*/, '').trim();
      blocks.push({ ...(name ? { name } : {}), firstLine: index + 2, lines: [], explicit: true });
    } else {
      (blocks[blocks.length - 1] as Block).lines.push(line);
    }
  });
  return blocks;
}

function parseBlock(block: Block, file: string, index: number): RequestSpec | undefined {
  const annotations: Record<string, string> = {};
  const annotationLines: Record<string, number> = {};
  let i = 0;
  // Annotations, comments and blank lines come before the request line.
  for (; i < block.lines.length; i++) {
    const line = block.lines[i] as string;
    const annotation = ANNOTATION.exec(line);
    if (annotation) {
      annotations[annotation[1] as string] = annotation[2] || 'true'; // bare `# @flag` (even with trailing spaces) means true
      annotationLines[annotation[1] as string] = block.firstLine + i;
      continue;
    }
    if (line.trim() === '' || COMMENT.test(line)) continue;
    break;
  }
  if (i >= block.lines.length) {
    if (!block.explicit) return undefined; // text before the first ### that is only comments
    throw new ParseError(file, Math.max(block.firstLine - 1, 1), 1, `request ${block.name ? `"${block.name}" ` : ''}has no request line`, { hint: 'write a line such as: GET https://example.com/path' });
  }
  const lineNo = block.firstLine + i;
  const { method, url, methodWritten } = parseRequestLine(block.lines[i] as string, file, lineNo);
  const headers: Record<string, string> = {};
  i++;
  for (; i < block.lines.length; i++) {
    const line = block.lines[i] as string;
    if (line.trim() === '') break;
    if (COMMENT.test(line) && !line.includes(':')) continue;
    const colon = line.indexOf(':');
    const headerLine = block.firstLine + i;
    if (colon <= 0) throw new ParseError(file, headerLine, 1, `header line has no "Name: value" form: ${clip(line)}`, { hint: 'put a blank line between the headers and the body' });
    const name = line.slice(0, colon).trim();
    if (!HEADER_NAME.test(name)) {
      const bad = line.search(/[^A-Za-z0-9!#$%&'*+.^_`|~-]/);
      throw new ParseError(file, headerLine, bad + 1, `invalid header name ${JSON.stringify(name)}`);
    }
    headers[name] = line.slice(colon + 1).trim();
  }
  const bodyLines = block.lines.slice(i + 1);
  while (bodyLines.length > 0 && (bodyLines[bodyLines.length - 1] as string).trim() === '') bodyLines.pop();
  const spec: RequestSpec = {
    name: block.name ?? annotations.name ?? `request-${index}`,
    method,
    url,
    headers,
    annotations,
    source: { file, line: lineNo },
  };
  if (methodWritten === false) spec.methodWritten = false;
  if (bodyLines.length > 0) spec.body = bodyLines.join('\n');
  const tls = tlsFromAnnotations(annotations, (key, what) => new ParseError(file, annotationLines[key] ?? lineNo, 1, what, { hint: 'write: # @tls.insecureSkipVerify true (or false)' }));
  if (tls) spec.tls = tls;
  return spec;
}

function parseRequestLine(line: string, file: string, lineNo: number): { method: string; url: string; methodWritten?: false } {
  const trimmed = line.trim();
  const indent = line.length - line.trimStart().length;
  const parts = splitRequestLine(trimmed);
  const first = parts[0] ?? '';
  // A bare URL is a GET, as in the JetBrains and httpyac formats.
  if (parts.length === 1 && /^(https?:\/\/|\{\{)/i.test(first)) return { method: 'GET', url: first, methodWritten: false };
  if (!METHOD.test(first)) {
    const bad = first.search(/[^A-Za-z0-9!#$%&'*+.^_`|~-]/);
    throw new ParseError(file, lineNo, indent + Math.max(bad, 0) + 1, `invalid method ${JSON.stringify(clip(first))}`, { hint: 'the request line is: METHOD URL [HTTP/1.1], e.g. GET https://example.com' });
  }
  let rest = parts.slice(1);
  if (rest.length > 1 && /^HTTP\/\d(\.\d)?$/i.test(rest[rest.length - 1] as string)) rest = rest.slice(0, -1);
  if (rest.length === 0) throw new ParseError(file, lineNo, indent + first.length + 1, `request line has no URL: ${clip(trimmed)}`, { hint: 'write: METHOD URL, e.g. GET https://example.com' });
  if (rest.length > 1) throw new ParseError(file, lineNo, indent + trimmed.indexOf(rest[1] as string) + 1, `unexpected text after the URL: ${clip(rest.slice(1).join(' '))}`, { hint: 'encode spaces in the URL as %20' });
  const upper = first.toUpperCase();
  return { method: STANDARD_METHODS.has(upper) ? upper : first, url: rest[0] as string };
}

/**
 * Splits a request line at whitespace, except inside a template (`{{urlencode query}}`).
 * A scan, not a regex with a repeated group: that one overflows the stack on a 10 MB line.
 */
function splitRequestLine(text: string): string[] {
  const parts: string[] = [];
  let start = -1;
  for (let i = 0; i < text.length; ) {
    if (text.startsWith('{{', i)) {
      const end = text.indexOf('}}', i + 2);
      if (end >= 0) {
        if (start < 0) start = i;
        i = end + 2;
        continue;
      }
    }
    if (WHITESPACE.test(text[i] as string)) {
      if (start >= 0) parts.push(text.slice(start, i));
      start = -1;
    } else if (start < 0) {
      start = i;
    }
    i++;
  }
  if (start >= 0) parts.push(text.slice(start));
  return parts;
}

const WHITESPACE = /\s/;

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** `# @tls.certFile path` and friends become the request's `tls` object. */
function tlsFromAnnotations(annotations: Record<string, string>, invalid: (key: string, what: string) => ParseError): RequestSpec['tls'] | undefined {
  const tls: NonNullable<RequestSpec['tls']> = {};
  let any = false;
  for (const key of ['certFile', 'keyFile', 'caFile', 'pfxFile', 'passphrase'] as const) {
    const value = annotations[`tls.${key}`];
    if (value !== undefined) {
      tls[key] = value;
      any = true;
    }
  }
  const skip = annotations['tls.insecureSkipVerify'];
  if (skip !== undefined) {
    // Only an explicit yes turns verification off: `0`, `no` or a typo must not.
    if (skip !== 'true' && skip !== 'false') throw invalid('tls.insecureSkipVerify', `# @tls.insecureSkipVerify expects true or false, got ${JSON.stringify(clip(skip))}`);
    tls.insecureSkipVerify = skip === 'true';
    any = true;
  }
  return any ? tls : undefined;
}
