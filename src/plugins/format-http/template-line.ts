/**
 * Where a template is written in a `.http` file, for an error in it: httpyac's JavaScript in a
 * header or a body may sit several lines below its request line. The file is read again, on the
 * error's path only (the parse keeps no place for each template).
 */
import { readHttpText } from './read-http-text.js';
import { splitBlocks, type Block } from './blocks.js';

/** `{{ expression }}` as it may be written: any spacing inside the braces, any line break (CRLF) within. */
function writtenForm(expression: string): RegExp {
  const words = expression.trim().split(/\s+/).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`\\{\\{\\s*${words.join('\\s+')}\\s*\\}\\}`, 'g');
}

/** 1-based line of a position in the text (a line ends at LF, as the parser splits it). */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/**
 * The 1-based line of `{{ expression }}` for the request on `requestLine` of `file`: the first
 * in the request's own block, else the nearest above it (a file variable, `@x = {{ … }}`).
 * Undefined where it cannot be told — another format, a pipe or stdin, a file that cannot be read,
 * a template that came from elsewhere (a profile, an environment, a `<@ file`): the request's line
 * is named instead.
 */
export async function templateLine(file: string, requestLine: number, expression: string): Promise<number | undefined> {
  const text = await readHttpText(file);
  if (text === undefined) return undefined;
  let own: Block | undefined;
  splitBlocks(text, (block) => {
    if (own === undefined && block.start >= 0 && requestLine >= block.firstLine && requestLine < block.firstLine + block.lines.length) own = block;
  });
  if (own === undefined) return undefined;
  const written = writtenForm(expression);
  let above: number | undefined;
  for (const match of text.matchAll(written)) {
    const at = match.index ?? 0;
    if (at >= own.end) break;
    if (at >= own.start) return lineAt(text, at);
    above = at;
  }
  return above === undefined ? undefined : lineAt(text, above);
}
