import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { RequestSpec } from '../../core/model.js';

/** YAML and JSON request files: no request line, and the body may sit indented or quoted. */
function isStructuredFile(file: string): boolean {
  const extension = extname(file).slice(1).toLowerCase();
  return extension === 'yaml' || extension === 'yml' || extension === 'json';
}

export interface FilePosition {
  line: number;
  column: number;
}

/**
 * Where line `line`, column `column` of a request's body sits in its request file.
 *
 * HTTP files: where the parser found the body's lines (SourceLocation.bodyLine, bodyLines). YAML/JSON:
 * the body's first non-blank line is looked up in the file (YAML block scalars indent it, which
 * shifts the column). Undefined when the body cannot be found as written (a JSON string with
 * `\n` escapes, say).
 */
export async function bodyPositionInFile(file: string, spec: RequestSpec, body: string, line: number, column: number): Promise<FilePosition | undefined> {
  if (!isStructuredFile(file)) {
    // The parser noted where the body's lines are: comment and annotation lines among them are not body text.
    const { bodyLine, bodyLines } = spec.source;
    if (bodyLines) return line <= bodyLines.length ? { line: bodyLines[line - 1] as number, column } : undefined;
    return bodyLine === undefined ? undefined : { line: bodyLine + line - 1, column };
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.replace(/^\uFEFF/, '').split(/\r*\n/); // as format-http splits it
  const bodyLines = body.split(/\r?\n/);
  const first = bodyLines.findIndex((l) => l.trim() !== '');
  if (first < 0) return undefined;
  const wanted = (bodyLines[first] as string).trim();
  const at = lines.findIndex((l, index) => index >= spec.source.line - 1 && l.trim() === wanted);
  if (at < 0) return undefined;
  const indent = (s: string): number => s.length - s.trimStart().length;
  const shift = indent(lines[at] as string) - indent(bodyLines[first] as string);
  return { line: at + 1 + (line - 1 - first), column: column + shift };
}
