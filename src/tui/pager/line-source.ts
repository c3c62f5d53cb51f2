import { TERMINAL_ACTING_RANGES } from '../../report/render/visible.js';
import type { ByteLines } from './byte-lines.js';

const SGR = /\u001b\[[\d;]*m/g;
/**
 * Control characters move the terminal's cursor, C1 ones too (U+009B is CSI to a UTF-8 xterm),
 * and bidirectional overrides reorder what follows: each is shown as U+FFFD (tabs as spaces).
 */
const CONTROL = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f${TERMINAL_ACTING_RANGES}]`, 'g');
const CONTROL_BUT_ESC = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001a\\u001c-\\u001f${TERMINAL_ACTING_RANGES}]`, 'g');
/** An escape that does not start an SGR colour (a colour is `ESC [ digits ; m`). */
const LONE_ESC = /\u001b(?!\[[\d;]*m)/g;

/** What the pager pages over: lines, read one at a time, as drawn (`line`) and as searched (`plain`). */
export interface LineSource {
  /** Every line: may index the whole text once. */
  count(): number;
  /** Whether line `index` exists, reading no further than it. */
  exists(index: number): boolean;
  /** The line as drawn: may hold SGR colours, never other control characters. */
  line(index: number): string;
  /** The line without colours, as search sees it. */
  plain(index: number): string;
}

export function stripSgr(text: string): string {
  return text.replace(SGR, '');
}

/** Lines held in memory (the head of the pane: errors, warnings, headers). */
export class TextLines implements LineSource {
  constructor(private readonly lines: readonly string[]) {}
  count(): number {
    return this.lines.length;
  }
  exists(index: number): boolean {
    return index < this.lines.length;
  }
  line(index: number): string {
    return this.lines[index] ?? '';
  }
  plain(index: number): string {
    return stripSgr(this.line(index));
  }
}

/**
 * Text stored as bytes (a body, the pane reporter's output): decoded line by line when drawn.
 * `colored`: the text holds SGR colours (the pretty output) to keep; else every escape is shown
 * as U+FFFD (a raw body).
 */
export class StoredLines implements LineSource {
  constructor(
    private readonly store: ByteLines,
    private readonly colored: boolean,
  ) {}
  count(): number {
    return this.store.lineCount();
  }
  exists(index: number): boolean {
    return this.store.hasLine(index);
  }
  line(index: number): string {
    const text = this.store.line(index).toString('utf8').replace(/\t/g, '    ');
    return this.colored ? text.replace(CONTROL_BUT_ESC, '\uFFFD').replace(LONE_ESC, '\uFFFD') : text.replace(CONTROL, '\uFFFD');
  }
  plain(index: number): string {
    return stripSgr(this.line(index));
  }
}

/** Sources one after the other (the head, then the body). */
export class JoinedLines implements LineSource {
  constructor(private readonly parts: readonly LineSource[]) {}
  count(): number {
    return this.parts.reduce((sum, part) => sum + part.count(), 0);
  }
  exists(index: number): boolean {
    return this.locate(index)[0] !== undefined;
  }
  /** The part holding line `index`: only the parts before it are counted (the body is last). */
  private locate(index: number): [LineSource | undefined, number] {
    let at = index;
    for (const [i, part] of this.parts.entries()) {
      if (i === this.parts.length - 1) return part.exists(at) ? [part, at] : [undefined, 0];
      const count = part.count();
      if (at < count) return [part, at];
      at -= count;
    }
    return [undefined, 0];
  }
  line(index: number): string {
    const [part, at] = this.locate(index);
    return part?.line(at) ?? '';
  }
  plain(index: number): string {
    const [part, at] = this.locate(index);
    return part?.plain(at) ?? '';
  }
}

const HEX_WIDTH = 16;

/** A hex dump of bytes, 16 a line: offset, bytes, and the printable ASCII beside them. */
export class HexLines implements LineSource {
  constructor(private readonly bytes: Buffer) {}
  count(): number {
    return Math.ceil(this.bytes.length / HEX_WIDTH);
  }
  exists(index: number): boolean {
    return index < this.count();
  }
  line(index: number): string {
    return this.plain(index);
  }
  plain(index: number): string {
    const start = index * HEX_WIDTH;
    const row = this.bytes.subarray(start, start + HEX_WIDTH);
    let hex = '';
    let ascii = '';
    for (let i = 0; i < HEX_WIDTH; i += 1) {
      const byte = row[i];
      hex += (byte === undefined ? '  ' : byte.toString(16).padStart(2, '0')) + (i === 7 ? '  ' : ' ');
      if (byte !== undefined) ascii += byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.';
    }
    return `${start.toString(16).padStart(8, '0')}  ${hex} ${ascii}`;
  }
}
