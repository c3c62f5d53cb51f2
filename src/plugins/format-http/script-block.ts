/**
 * A JetBrains script block: `> {% code %}` (response handler) or `< {% code %}` (pre-request
 * script), on one line or over several up to the line holding `%}`; or a script file:
 * `> ./check.js`, `< ./setup.js`.
 */
import { ParseError } from '../../core/errors/index.js';
import type { ScriptSpec } from '../../core/model.js';

export interface ScriptBlock {
  script: Omit<ScriptSpec, 'phase'>;
  /** Index (in `lines`) of the block's last line. */
  lastIndex: number;
}

export function readScriptBlock(lines: readonly string[], index: number, firstLine: number, file: string, marker: '<' | '>'): ScriptBlock {
  const first = (lines[index] as string).trimStart().slice(marker.length).trimStart();
  const lineNo = firstLine + index;
  if (!first.startsWith('{%')) return { script: { path: first.trim(), line: lineNo }, lastIndex: index };
  const code: string[] = [];
  let text = first.slice(2);
  for (let i = index; i < lines.length; i++) {
    if (i > index) text = lines[i] as string;
    const end = text.indexOf('%}');
    if (end >= 0) {
      code.push(text.slice(0, end));
      if (text.slice(end + 2).trim() !== '') throw new ParseError(file, firstLine + i, end + 3, 'unexpected text after "%}"', { hint: 'a script block ends with %} alone' });
      return { script: { code: code.join('\n'), line: lineNo }, lastIndex: i };
    }
    code.push(text);
  }
  throw new ParseError(file, lineNo, 1, 'script block "{%" is never closed with "%}"', { hint: 'end the script with a line holding %}' });
}
