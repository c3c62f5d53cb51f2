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
 * HTTP files: the body starts after the first blank line below the request line. YAML/JSON:
 * the body's first non-blank line is looked up in the file (YAML block scalars indent it, which
 * shifts the column). Undefined when the body cannot be found as written (a JSON string with
 * `\n` escapes, say).
 */
export async function bodyPositionInFile(file: string, spec: RequestSpec, body: string, line: number, column: number): Promise<FilePosition | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.replace(/^\uFEFF/, '').split(/\r*\n/); // as format-http splits it
  if (!isStructuredFile(file)) {
    let i = spec.source.line; // 0-based index of the line after the request line
    while (i < lines.length && (lines[i] as string).trim() !== '') i++;
    return { line: i + 2 + line - 1, column };
  }
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
