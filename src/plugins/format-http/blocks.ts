import { commentLine, FILE_VARIABLE, HTTPYAC_SCRIPT_END, HTTPYAC_SCRIPT_START, opensBlockComment, PRE_REQUEST_SCRIPT } from './line-forms.js';

// `s`: a lone CR (not before LF) is content, and `.` alone would not match it. Indented too, as httpyac
// (`RegionSeparator`) and resterm (a trimmed line) read it; VS Code would take it for a comment and send
// the next request as this one's body (docs/http-dialect.md).
export const SEPARATOR = /^([ \t]*)###(.*)$/s;
/**
 * A request line with a standard method and a URL, or one of httpyac's other protocols (`SSE`,
 * `GRPC`, …: request-line.ts), after a blank line: a new request even without `###` before it
 * (httpyac; VS Code and JetBrains would send it as body text).
 */
export const UNSEPARATED_REQUEST = /^(?:(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|GRAPHQL|WEBSOCKET)[ \t]+(?:https?:\/\/|wss?:\/\/|\{\{|\/)\S*(?:[ \t]+HTTP\/\d(?:\.\d)?)?|(?:WSS?|SSE|EVENTSOURCE|GRPC|MQTTS?|AMQP)[ \t]+\S+)[ \t]*$/;
/** `\r\r\n` (a CRLF file converted twice) ends a line like `\r\n`: a CR before LF is never content. */
const LINE_BREAK = /\r*\n/;

export interface Block {
  /** Written after `###`. */
  name: string | undefined;
  /** 1-based line of the first line in `lines`. */
  firstLine: number;
  lines: string[];
  /** Where the block's lines are in the text: `text.slice(start, end).split(LINE_BREAK)` is `lines` (none when `start === -1`). */
  start: number;
  end: number;
}

/** The name written after `###` (the separator's `rest`), if any. */
const separatorName = (rest: string | undefined): string | undefined => (rest ?? '').replace(/^#*/, '').trim() || undefined;

/**
 * The name of a block that a `###` line opened, read again from that line: the one right above
 * the block's first line (`start`), as `splitBlocks` saw it. An index keeps a flag, not the name.
 */
export function separatorNameAbove(text: string, start: number): string | undefined {
  let end = start - 1; // the LF that ends the `###` line
  while (end > 0 && text.charCodeAt(end - 1) === 13) end--;
  return separatorName(SEPARATOR.exec(text.slice(text.lastIndexOf('\n', start - 2) + 1, end))?.[2]);
}

/** The lines of a block again, from its place in the text. */
export function blockLines(text: string, start: number, end: number): string[] {
  return start < 0 ? [] : text.slice(start, end).split(LINE_BREAK);
}

/**
 * Splits the text at `###` (or at a request line after a blank line) and hands each block to
 * `onBlock` as soon as it ends: only the open block's lines are held, never the whole file's.
 */
export function splitBlocks(text: string, onBlock: (block: Block) => void): void {
  let current: Block = { name: undefined, firstLine: 1, lines: [], start: -1, end: -1 };
  /** Where each line of `current` starts and ends in the text. */
  let starts: number[] = [];
  let ends: number[] = [];
  const open = (block: Block, lineStarts: number[], lineEnds: number[]): void => {
    current = block;
    starts = lineStarts;
    ends = lineEnds;
  };
  const close = (): void => {
    if (starts.length > 0) {
      current.start = starts[0] as number;
      current.end = ends[ends.length - 1] as number;
    }
    onBlock(current);
  };
  /** Has the current block a request line yet; is a JetBrains script block or a `/* … *\/` comment open? */
  let request = false;
  let script = false;
  let comment = false;
  /** Between the request line and the first blank line after it. */
  let head = false;
  /** The open script block is httpyac's (`{{` … `}}`), not JetBrains' (`{%` … `%}`). */
  let yacScript = false;
  let from = 0;
  for (let index = 0; ; index++) {
    // A line ends at LF, without the CRs before it (LINE_BREAK), as `split(LINE_BREAK)` cuts it.
    const next = text.indexOf('\n', from);
    let to = next < 0 ? text.length : next;
    if (next >= 0) while (to > from && text.charCodeAt(to - 1) === 13) to--;
    const line = text.slice(from, to);
    step: {
      // `###` inside an httpyac comment is Markdown (a heading), not a separator.
      if (comment || (!script && opensBlockComment(line))) {
        current.lines.push(line);
        starts.push(from);
        ends.push(to);
        comment = !(comment ? line : line.trimStart().slice(2)).includes('*/');
        break step;
      }
      const separator = SEPARATOR.exec(line);
      // Inside a script block an indented `###` is the script's text.
      if (separator && !(script && separator[1] !== '')) {
        close();
        // A literal of one shape, never a spread: spread objects here made V8 keep the parse's garbage (3 × the heap).
        open({ name: separatorName(separator[2]), firstLine: index + 2, lines: [], start: -1, end: -1 }, [], []);
        request = script = head = false;
        break step;
      }
      if (request && !script && UNSEPARATED_REQUEST.test(line)) {
        // The comments and annotations right above it (`# @name x`) are the new request's.
        let start = current.lines.length;
        while (start > 0 && commentLine(current.lines[start - 1] as string)) start--;
        // After a blank line, or among the headers (where it cannot be a header): a request.
        if (head || (start > 0 && (current.lines[start - 1] as string).trim() === '')) {
          const moved = current.lines.splice(start);
          const movedStarts = starts.splice(start);
          const movedEnds = ends.splice(start);
          close();
          open({ name: undefined, firstLine: index + 1 - moved.length, lines: moved, start: -1, end: -1 }, movedStarts, movedEnds);
          current.lines.push(line);
          starts.push(from);
          ends.push(to);
          head = true;
          break step;
        }
      }
      current.lines.push(line);
      starts.push(from);
      ends.push(to);
      if (script) script = !(yacScript ? HTTPYAC_SCRIPT_END.test(line) : line.includes('%}'));
      else if (/^\s*[<>]\s*\{%/.test(line)) {
        yacScript = false;
        script = !line.slice(line.indexOf('{%') + 2).includes('%}');
      } else if (HTTPYAC_SCRIPT_START.test(line)) script = yacScript = true;
      // `< ./setup.js` above the request line is its pre-request script, not a request line: taken for one, the
      // request below was split off and the script dropped unsaid.
      else if (!request && line.trim() !== '' && !commentLine(line) && !FILE_VARIABLE.test(line) && !PRE_REQUEST_SCRIPT.test(line)) request = head = true;
      else if (line.trim() === '') head = false;
    }
    if (next < 0) break;
    from = next + 1;
  }
  close();
}
