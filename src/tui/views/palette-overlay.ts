import type { Key } from '../blessed.js';
import { ACTION_NAMES, ACTIONS, keysText, type Action, type Bindings } from '../keymap.js';
import { LineEditor } from '../line-editor.js';
import { colors, fit } from './format.js';
import { Overlay, type OverlayHost } from './overlay.js';

/** The palette's rows: every action but the palette itself, what it does and its keys. */
export function paletteRows(bindings: Bindings): Array<{ action: Action; what: string; keys: string }> {
  return ACTION_NAMES.filter((action) => action !== 'palette').map((action) => ({ action, what: ACTIONS[action].what, keys: keysText(bindings, action) || '(no key)' }));
}

/** Rows whose action name, description or keys hold every word typed (case-insensitive). */
export function filterPalette<T extends { action: string; what: string; keys: string }>(rows: readonly T[], query: string): T[] {
  const words = query.toLowerCase().split(/\s+/).filter((word) => word !== '');
  return rows.filter((row) => {
    const text = `${row.action} ${row.what} ${row.keys}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

/**
 * The command palette (`:` or Ctrl-P): every action of the main screen with its keys, from the
 * same table as the key map (keymap.ts). Typing filters, ↑ ↓ choose, Enter runs, Esc closes.
 */
export class PaletteOverlay extends Overlay {
  private readonly query = new LineEditor();
  private readonly rows: ReturnType<typeof paletteRows>;
  private index = 0;

  constructor(
    host: OverlayHost,
    bindings: Bindings,
    private readonly run: (action: Action) => void,
  ) {
    const rows = paletteRows(bindings);
    super(host, 'Commands', { width: 78, height: rows.length + 5 });
    this.rows = rows;
  }

  private get shown(): ReturnType<typeof paletteRows> {
    return filterPalette(this.rows, this.query.value);
  }

  protected draw(): void {
    const shown = this.shown;
    const height = Math.max(1, (this.box.height as number) - 5);
    this.index = Math.max(0, Math.min(this.index, shown.length - 1));
    const start = Math.max(0, Math.min(this.index - height + 1, shown.length - height));
    const width = this.innerWidth;
    const keyWidth = 14;
    const lines = shown.slice(start, start + height).map((row, i) => {
      const text = `${fit(row.keys, keyWidth - 1).padEnd(keyWidth)}${fit(row.what, width - keyWidth - 2)}`;
      return start + i === this.index ? `\u001b[7m› ${text}${' '.repeat(Math.max(0, width - 2 - [...text].length))}\u001b[27m` : `  ${text}`;
    });
    if (shown.length === 0) lines.push(colors.dim('  no command matches'));
    this.box.setContent([`: ${this.query.render(width - 2, { focused: true })}`, '', ...lines, colors.dim('type to filter · ↑ ↓ choose · Enter runs · Esc closes')].join('\n'));
  }

  handleKey(ch: string | undefined, key: Key): void {
    switch (key.full) {
      case 'escape':
        return this.close();
      case 'enter': {
        const row = this.shown[this.index];
        this.close();
        if (row) this.run(row.action);
        return;
      }
      case 'down':
      case 'C-n':
        this.index += 1;
        break;
      case 'up':
      case 'C-p':
        this.index = Math.max(0, this.index - 1);
        break;
      default:
        if (!this.query.handle(ch, key)) return;
        this.index = 0;
    }
    this.redraw();
  }

  insertText(text: string): boolean {
    if (!this.query.insert(text)) return true;
    this.index = 0;
    this.redraw();
    return true;
  }
}
