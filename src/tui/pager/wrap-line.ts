import { layoutWidth } from '../wide-chars.js';

/** A part of a line to highlight, in offsets of the line without colours. */
export interface Mark {
  start: number;
  end: number;
  /** The match `n`/`N` is on: drawn apart from the others. */
  current?: boolean;
}

const SGR_AT = /\u001b\[[\d;]*m/y;
const RESET = '\u001b[0m';
const MARK_ON = '\u001b[7m';
const MARK_OFF = '\u001b[27m';
const CURRENT_ON = '\u001b[30;43m';
const CURRENT_OFF = '\u001b[39;49m';
/** A full row breaks after a space this close to its end rather than inside a word. */
const WORD_BREAK_COLUMNS = 15;

/**
 * Cuts one line (which may hold SGR colours) into rows of at most `width` columns, with search
 * matches highlighted. Each row starts with a reset and the colours still in force, so no
 * colour runs over from the row before; a row never ends with an escape code (neo-blessed
 * would wrap a full row again because of it).
 */
export function wrapLine(line: string, width: number, marks: readonly Mark[] = []): string[] {
  const rows: string[] = [];
  let row = RESET;
  let columns = 0;
  let active = ''; // the colours in force
  let plain = 0; // offset in the line without colours
  let mark: Mark | undefined;
  const markOn = (m: Mark): string => (m.current ? CURRENT_ON : MARK_ON);
  const markOff = (m: Mark): string => (m.current ? CURRENT_OFF : MARK_OFF);
  let at = 0;
  // The last space of the row: where to break it (the scan resumes after it).
  let space: { rowLength: number; column: number; at: number; plain: number; active: string; mark: Mark | undefined } | undefined;
  while (at < line.length) {
    SGR_AT.lastIndex = at;
    const sgr = SGR_AT.exec(line);
    if (sgr) {
      const code = sgr[0];
      active = code === RESET || code === '\u001b[m' ? '' : active + code;
      // On a full row the code waits for the next row (which starts with the colours in force).
      if (columns < width) row += code + (mark ? markOn(mark) : ''); // a colour must not hide the highlight
      at += code.length;
      continue;
    }
    const codePoint = line.codePointAt(at) as number;
    const char = String.fromCodePoint(codePoint);
    // A row is cut where neo-blessed's layout counts it full (wide-chars.ts, layoutWidth: an emoji
    // counts 3 for its 2 columns): cut by columns only, blessed wrapped a row of emoji again, and
    // the rows it added pushed the body's last lines off the pane.
    const columnsOf = codePoint >= 0x1100 ? layoutWidth(char) : 1;
    if (columns > 0 && columns + columnsOf > width) {
      if (space && line[at] !== ' ' && space.column > width - WORD_BREAK_COLUMNS) {
        rows.push(row.slice(0, space.rowLength));
        ({ at, plain, active, mark } = space);
      } else rows.push(row);
      row = RESET + active + (mark ? markOn(mark) : '');
      columns = 0;
      space = undefined;
      continue;
    }
    if (mark && plain >= mark.end) {
      row += markOff(mark) + active;
      mark = undefined;
    }
    if (!mark) {
      const starting = marks.find((m) => m.start <= plain && plain < m.end);
      if (starting) {
        mark = starting;
        row += markOn(mark);
      }
    }
    row += char;
    columns += columnsOf;
    at += char.length;
    plain += char.length;
    if (char === ' ') space = { rowLength: row.length, column: columns, at, plain, active, mark };
  }
  rows.push(row);
  return rows;
}
