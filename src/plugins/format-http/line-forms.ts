/**
 * Lines of the `.http` dialect that are not part of a request's method, headers or body, wherever
 * they stand: comments (`#`, `//`, httpyac's `/* … *\/` blocks), annotations, file variables
 * (`@name = value`), and httpyac's JavaScript blocks (`{{ … }}`).
 */
import { ParseError } from '../../core/errors/index.js';
import type { ScriptSpec } from '../../core/model.js';

// `# @name value`, `// @name value`, `# @name=value` (JetBrains); a bare `# @flag` means true.
// The value ends at its last non-space character, found by one greedy scan: a lazy `(.*?)\s*$`
// tried the end of the line from every character of it (a 200 kB line took minutes).
export const ANNOTATION = /^\s*(?:#|\/\/)\s*@([A-Za-z_][\w.-]*)(?:(?:=|\s+)((?:.*\S)?))?\s*$/s;
export const COMMENT = /^\s*(#|\/\/)/;

/** `# …`, `// …`, or a line that opens a `/* … *\/` comment (the parser skips the whole line): no request line, no body text. */
export const commentLine = (line: string): boolean => COMMENT.test(line) || line.trimStart().startsWith('/*');

/**
 * An annotation written below the request line (httpyac, kulala and restcli read them there):
 * `# @key value` or `# @key=value`. `# @key = value` there is a commented-out file variable.
 */
export function requestAnnotation(line: string): { key: string; value: string } | undefined {
  const annotation = ANNOTATION.exec(line);
  if (!annotation || /^\s*(?:#|\/\/)\s*@[\w.-]+\s+=/.test(line)) return undefined;
  return { key: annotation[1] as string, value: annotation[2] ?? '' };
}
/** `@name = value` (VS Code, httpyac, JetBrains): a file variable, visible to the requests below it. */
export const FILE_VARIABLE = /^\s*@([A-Za-z_$][\w.$-]*)\s*=\s?((?:.*\S)?)\s*$/s;

/** `< {% … %}` or `< ./script.js` before the request line: a pre-request script (no request line: the block splitter reads past it). */
export const PRE_REQUEST_SCRIPT = /^\s*<\s*(\{%|\S+\.js\s*$)/;

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

/** An httpyac `{{ … }}` block: its code, where it runs, and the index of its closing line. */
export interface HttpyacScript {
  script: Omit<ScriptSpec, 'phase'>;
  /** `{{@response`: after the response wherever it stands; else where it stands says. */
  afterResponse: boolean;
  /** `{{@request` (or `{{request`): httpyac's request hook, just before the request goes out wherever it stands. */
  beforeSend: boolean;
  /** `{{+`, `{{+request`, `{{+response`: the file's hook (httpyac registers it on the file, not the block), for every request of the file. */
  fileWide: boolean;
  lastIndex: number;
}

/** Where a `{{` block above the request line runs, and every file hook (`{{+…`) wherever written: `{{@response` after the response, `{{@request` on the resolved request, else before the request is resolved. */
export function scriptPhase(script: Pick<HttpyacScript, 'afterResponse' | 'beforeSend'>): ScriptSpec['phase'] {
  return script.afterResponse ? 'post' : script.beforeSend ? 'request' : 'pre';
}

/** `{{`, `{{@response`, `{{+`, `{{@request`, … alone on a line (httpyac's own pattern). */
export const HTTPYAC_SCRIPT_START = /^\s*\{\{(?:@js\s+)?([+@]?)(request|streaming|response|after|responseLogging)?\s*$/i;
export const HTTPYAC_SCRIPT_END = /^\s*\}\}\s*$/;

/**
 * httpyac's JavaScript block opening at `lines[index]` (undefined when the line opens none):
 * `{{` (runs where it stands: above the request line before it, below the body after the
 * response), `{{@response` or `{{@request` (docs/http-dialect.md, "httpyac's request hooks"),
 * and the same three with `+` — the file's hooks, for every request wherever written.
 * Its other hooks (`{{@streaming`, `{{+after`, …) are refused naming the line: without them the
 * request would go out differently.
 */
export function readHttpyacScript(lines: readonly string[], index: number, firstLine: number, file: string): HttpyacScript | undefined {
  const opening = HTTPYAC_SCRIPT_START.exec(lines[index] as string);
  if (!opening) return undefined;
  const lineNo = firstLine + index;
  const [, modifier = '', event = ''] = opening;
  const kind = event.toLowerCase();
  if (kind !== '' && kind !== 'response' && kind !== 'request') {
    throw new ParseError(file, lineNo, 1, `httpyac's {{${modifier}${event} script hook is not supported`, { hint: 'plain {{ … }} blocks, {{@request … }}, {{@response … }} and their {{+ forms run; or use a JetBrains handler (> {% … %}, < {% … %})' });
  }
  for (let i = index + 1; i < lines.length; i++) {
    if (HTTPYAC_SCRIPT_END.test(lines[i] as string)) {
      return { script: { code: lines.slice(index + 1, i).join('\n'), line: lineNo + 1, dialect: 'httpyac' }, afterResponse: kind === 'response', beforeSend: kind === 'request', fileWide: modifier === '+', lastIndex: i };
    }
  }
  throw new ParseError(file, lineNo, 1, 'script block "{{" is never closed with "}}"', { hint: 'end the script with a line holding }} alone' });
}
