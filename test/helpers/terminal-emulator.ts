/**
 * A terminal emulator for render tests: xterm.js headless with Unicode 11 widths (emoji two
 * columns wide, as today's terminals draw them). What the UI wrote goes in; the cells a user
 * would see come out, so stale cells left by a wrong width show up.
 */
import xtermHeadless from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';

export interface Emulator {
  write(data: string): Promise<void>;
  /** The visible rows, trailing spaces trimmed. */
  rows(): string[];
  /** One cell's character and looks: colours as palette indexes (undefined: the terminal's default). */
  cell(x: number, y: number): { ch: string; fg?: number; bg?: number; inverse: boolean; bold: boolean };
  /** Every cell in the terminal's default colours? */
  colourless(): boolean;
  dispose(): void;
}

export function emulator(columns: number, rows: number): Emulator {
  const term = new xtermHeadless.Terminal({ cols: columns, rows, allowProposedApi: true });
  term.loadAddon(new unicode11.Unicode11Addon());
  term.unicode.activeVersion = '11';
  return {
    write: (data) => new Promise((resolve) => term.write(data, resolve)),
    rows() {
      const buffer = term.buffer.active;
      const lines: string[] = [];
      for (let y = 0; y < rows; y++) lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
      return lines;
    },
    cell(x, y) {
      const buffer = term.buffer.active;
      const cell = buffer.getLine(buffer.viewportY + y)?.getCell(x);
      if (!cell) return { ch: '', inverse: false, bold: false };
      return {
        ch: cell.getChars(),
        ...(cell.isFgDefault() ? {} : { fg: cell.getFgColor() }),
        ...(cell.isBgDefault() ? {} : { bg: cell.getBgColor() }),
        inverse: cell.isInverse() !== 0,
        bold: cell.isBold() !== 0,
      };
    },
    colourless() {
      const buffer = term.buffer.active;
      for (let y = 0; y < rows; y++) {
        const line = buffer.getLine(buffer.viewportY + y);
        for (let x = 0; x < columns; x++) {
          const cell = line?.getCell(x);
          if (cell && (!cell.isFgDefault() || !cell.isBgDefault())) return false;
        }
      }
      return true;
    },
    dispose: () => term.dispose(),
  };
}
