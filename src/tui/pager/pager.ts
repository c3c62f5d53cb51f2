import { TextLines, type LineSource } from './line-source.js';
import { findMatches, type Match } from './search.js';
import { wrapLine, type Mark } from './wrap-line.js';

/** The first row shown: a line, and a row of it once wrapped. */
interface Position {
  line: number;
  row: number;
}

/** What the pane needs to draw: the rows, and where they are in the text. */
export interface PagerView {
  rows: string[];
  /** First line shown (from 1). */
  line: number;
  /** At the end: nothing below. */
  atEnd: boolean;
}

/**
 * A window over a {@link LineSource}: only the rows on screen are read, decoded and wrapped,
 * so the size of the text does not matter. Scrolls by rows; `end` reaches the true last line.
 */
export class Pager {
  private source: LineSource = new TextLines([]);
  private top: Position = { line: 0, row: 0 };
  private width = 80;
  private height = 20;
  /** Follow the end (a stream while it runs, or after `G`) as the text grows. */
  following = false;
  private search?: { query: string; matches: Match[]; capped: boolean; current: number };

  setSource(source: LineSource): void {
    this.source = source;
  }

  setViewport(width: number, height: number): void {
    this.width = Math.max(1, width);
    this.height = Math.max(1, height);
  }

  /** Back to the top, search cleared (a new response). */
  reset(): void {
    this.top = { line: 0, row: 0 };
    this.following = false;
    delete this.search;
  }

  private rowsOf(line: number): string[] {
    return wrapLine(this.source.line(line), this.width, this.marksOf(line));
  }

  private rowCount(line: number): number {
    return this.rowsOf(line).length;
  }

  private marksOf(line: number): Mark[] {
    const search = this.search;
    if (!search || search.matches.length === 0) return [];
    // Matches are in line order: find this line's by binary search.
    let low = 0;
    let high = search.matches.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((search.matches[middle] as Match).line < line) low = middle + 1;
      else high = middle;
    }
    const marks: Mark[] = [];
    for (let i = low; i < search.matches.length && (search.matches[i] as Match).line === line; i += 1) {
      const match = search.matches[i] as Match;
      marks.push({ start: match.start, end: match.end, ...(i === search.current ? { current: true } : {}) });
    }
    return marks;
  }

  /** Moves the window by `delta` rows (negative: up), stopping at either end. */
  scroll(delta: number): void {
    this.following = false;
    let { line, row } = this.top;
    if (delta < 0) {
      let left = -delta;
      while (left > 0 && (line > 0 || row > 0)) {
        if (row >= left) {
          row -= left;
          left = 0;
        } else {
          left -= row + 1;
          line -= 1;
          row = this.rowCount(line) - 1;
        }
      }
      this.top = { line, row: Math.max(0, row) };
      return;
    }
    // Down: line by line, reading only what is passed; the end is looked for only once near it.
    let left = delta;
    while (left > 0) {
      const rows = this.rowCount(line);
      if (row + left < rows) {
        row += left;
        left = 0;
      } else if (!this.source.exists(line + 1)) {
        row = rows - 1;
        left = 0;
      } else {
        left -= rows - row;
        line += 1;
        row = 0;
      }
    }
    this.top = { line, row };
    if (this.view().rows.length < this.height) this.top = this.lastTop(); // past the end: the last screenful
  }

  /** The first position from which the last line ends at the bottom of the window. */
  private lastTop(): Position {
    const count = this.source.count();
    if (count === 0) return { line: 0, row: 0 };
    let line = count - 1;
    let rows = this.rowCount(line);
    let free = this.height - rows;
    if (free < 0) return { line, row: rows - this.height };
    while (line > 0) {
      const above = this.rowCount(line - 1);
      if (above > free) return { line: line - 1, row: above - free };
      free -= above;
      line -= 1;
      rows = above;
    }
    return { line: 0, row: 0 };
  }

  page(direction: 1 | -1): void {
    this.scroll(direction * Math.max(1, this.height - 1));
  }

  first(): void {
    this.following = false;
    this.top = { line: 0, row: 0 };
  }

  /** To the true last line, and stays there while the text grows. */
  end(): void {
    this.top = this.lastTop();
    this.following = true;
  }

  /** The rows in the window now. */
  view(): PagerView {
    if (this.following) this.top = this.lastTop();
    // Only the lines on screen are read: the first screen of a huge body costs no more than a small one's.
    const rows: string[] = [];
    let { line, row } = this.top;
    while (rows.length < this.height && this.source.exists(line)) {
      const wrapped = this.rowsOf(line);
      rows.push(...wrapped.slice(row, row + this.height - rows.length));
      line += 1;
      row = 0;
    }
    return { rows, line: this.top.line + 1, atEnd: !this.source.exists(line) };
  }

  // ── search ─────────────────────────────────────────────────────────────────────────────────

  /** Finds every match and shows the first at or after the window's top. */
  find(query: string): string {
    if (query === '') {
      delete this.search;
      return 'search cleared';
    }
    const { matches, capped } = findMatches(this.source, query);
    const from = matches.findIndex((match) => match.line >= this.top.line);
    this.search = { query, matches, capped, current: from < 0 ? 0 : from };
    if (matches.length === 0) return `no match for "${query}"`;
    this.showCurrent();
    return this.matchState();
  }

  /** `n` (1) and `N` (-1): the next or previous match, wrapping around. */
  step(direction: 1 | -1): string {
    const search = this.search;
    if (!search) return 'no search: / searches the response';
    if (search.matches.length === 0) return `no match for "${search.query}"`;
    search.current = (search.current + direction + search.matches.length) % search.matches.length;
    this.showCurrent();
    return this.matchState();
  }

  get query(): string | undefined {
    return this.search?.query;
  }

  private matchState(): string {
    const search = this.search;
    if (!search) return '';
    return `match ${search.current + 1}/${search.matches.length}${search.capped ? '+' : ''} for "${search.query}" · n next · N previous`;
  }

  /** Scrolls so the current match is on screen, a third of the way down. */
  private showCurrent(): void {
    const match = this.search?.matches[this.search.current];
    if (!match) return;
    this.following = false;
    // Already on screen (away from the bottom row): the window stays.
    const shown = this.view().rows.length;
    if (this.top.row === 0 && match.line >= this.top.line && match.line < this.top.line + shown - 1) return;
    this.top = { line: match.line, row: 0 };
    this.scroll(-Math.floor(this.height / 3));
    const last = this.lastTop();
    if (this.top.line > last.line || (this.top.line === last.line && this.top.row > last.row)) this.top = last;
  }
}
