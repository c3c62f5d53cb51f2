/**
 * Lines of the `.http` dialect that are not part of a request's method, headers or body, wherever
 * they stand: comments (`#`, `//`, httpyac's `/* … *\/` blocks), annotations, file variables
 * (`@name = value`), and httpyac's JavaScript blocks (`{{ … }}`), which reqflow refuses.
 */
import { ParseError } from '../../core/errors/index.js';

// `# @name value`, `// @name value`, `# @name=value` (JetBrains); a bare `# @flag` means true.
export const ANNOTATION = /^\s*(?:#|\/\/)\s*@([A-Za-z_][\w.-]*)(?:(?:=|\s+)(.*?))?\s*$/s;
export const COMMENT = /^\s*(#|\/\/)/;
/** `@name = value` (VS Code, httpyac, JetBrains): a file variable, visible to the requests below it. */
export const FILE_VARIABLE = /^\s*@([A-Za-z_$][\w.$-]*)\s*=\s?(.*?)\s*$/s;
/** httpyac: `{{`, `{{@response`, `{{+after` alone on a line open a JavaScript block, closed by `}}`. */
const SCRIPT_OPENING = /^\s*\{\{(?:[@+][\w-]*)?\s*$/;

/** Does the line open a `/* … *\/` comment (httpyac) that it does not close? */
export function opensBlockComment(line: string): boolean {
  const text = line.trimStart();
  return text.startsWith('/*') && !text.slice(2).includes('*/');
}

/**
 * `/* … *\/` (httpyac) starting at `lines[index]`: the index of the line that closes it, or
 * undefined when the line does not open one.
 */
export function blockCommentEnd(lines: readonly string[], index: number, firstLine: number, file: string): number | undefined {
  const line = lines[index] as string;
  if (!line.trimStart().startsWith('/*')) return undefined;
  for (let i = index; i < lines.length; i++) {
    const text = i === index ? line.trimStart().slice(2) : (lines[i] as string);
    if (text.includes('*/')) return i;
  }
  throw new ParseError(file, firstLine + index, 1, 'comment "/*" is never closed with "*/"', { hint: 'end the comment with */' });
}

/**
 * httpyac's `{{ … }}` blocks run JavaScript with Node's full API (`require`, `exports`): reqflow
 * does not, and sending the request without what the script would have set would send it wrong.
 */
export function refuseScriptBlock(line: string, lineNo: number, file: string): void {
  if (!SCRIPT_OPENING.test(line)) return;
  throw new ParseError(file, lineNo, 1, 'httpyac script blocks ({{ … }}) are not supported', {
    hint: 'use a JetBrains handler (> {% … %}, < {% … %}), # @capture name = $.path, or ?? assertions',
  });
}
