import type { Screen } from './blessed.js';

/** neo-blessed's cell attribute: `flags << 18 | fg << 9 | bg`, 0x1ff being the terminal's default colour. */
const DEFAULT_COLOURS = (0x1ff << 9) | 0x1ff;
const FLAGS = ~0x3ffff;

interface DrawingScreen {
  lines: Array<Array<[number, string]> & { dirty?: boolean }>;
  draw(start: number, end: number): void;
}

/**
 * `NO_COLOR`: every cell is drawn in the terminal's own colours, keeping bold, underline and
 * reverse video (the focus and the selection stay visible). Done on the cells just before
 * neo-blessed writes the rows that changed, so no pane has to know.
 */
export function dropColours(screen: Screen): void {
  const target = screen as unknown as DrawingScreen;
  const draw = target.draw.bind(target);
  target.draw = (start, end) => {
    for (let y = start; y <= end; y++) {
      const line = target.lines[y];
      if (line?.dirty) for (const cell of line) cell[0] = (cell[0] & FLAGS) | DEFAULT_COLOURS;
    }
    draw(start, end);
  };
}
