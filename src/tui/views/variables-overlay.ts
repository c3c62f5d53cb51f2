import type { Key } from '../blessed.js';
import type { EditorRow } from '../variables/editor-rows.js';
import { colors, fit, padTo, shown } from './format.js';
import { layoutWidth } from '../wide-chars.js';
import { Overlay, type OverlayHost } from './overlay.js';

/** What the editor's keys do (actions/variables.ts): each writes the profiles file and reloads. */
export interface VariableEditorActions {
  edit(row: EditorRow): void;
  add(): void;
  remove(row: EditorRow): void;
  /** Multi-value: the next (1) or previous (-1) option becomes active. */
  cycle(row: EditorRow, step: 1 | -1): void;
  /** Multi-value: pick the active option from a list. */
  choose(row: EditorRow): void;
  addOption(row: EditorRow): void;
  /** Multi-value: name the active option (or rename its alias). */
  alias(row: EditorRow): void;
}

const FOOTER = 'Enter edits · a adds · d removes · ←/→ option · o picks · + adds option · n names it · Esc';

/**
 * `v`: the variable editor. Lists the profile's variables (a multi-value one with its active
 * option and aliases), then those from `-e`, the session and the environment (read only, with
 * which source wins). Values arrive masked (editor-rows.ts).
 */
export class VariablesOverlay extends Overlay {
  private index = 0;
  /** `d` was pressed once on this variable: a second `d` removes it. */
  private removing: string | undefined;

  constructor(
    host: OverlayHost,
    title: string,
    private rows: EditorRow[],
    private readonly actions: VariableEditorActions,
  ) {
    super(host, title, { width: 100, height: Math.max(10, rows.length + 7) });
  }

  get selected(): EditorRow | undefined {
    return this.rows[this.index];
  }

  /** After a write: the rows as the file now says, the same variable selected when it still exists. */
  update(rows: EditorRow[], select?: string): void {
    const name = select ?? this.selected?.name;
    this.rows = rows;
    const found = rows.findIndex((row) => row.name === name && row.editable);
    this.index = Math.max(0, Math.min(found >= 0 ? found : this.index, rows.length - 1));
    this.redraw();
  }

  protected draw(): void {
    const width = this.innerWidth;
    const nameWidth = Math.min(24, Math.max(8, ...this.rows.map((row) => row.name.length)));
    const detail = this.detail(width);
    const room = Math.max(1, (this.box.height as number) - 3 - detail.length - 1);
    const start = Math.max(0, Math.min(this.index - room + 1, this.rows.length - room));
    const lines = this.rows.slice(start, start + room).map((row, i) => {
      const choice = row.options && row.active !== undefined ? ` ‹${row.active + 1}/${row.options.length}${row.options[row.active]?.aliases[0] ? ` ${row.options[row.active]?.aliases[0]}` : ''}›` : '';
      const note = row.note ? `  ${row.note}` : '';
      // Names and values are the project's: controls shown, columns counted as the terminal draws them.
      const fittedName = padTo(fit(shown(row.name), nameWidth), nameWidth);
      const plain = `${fittedName} ${row.source.padEnd(11)} `;
      const value = fit(shown(row.value), Math.max(8, width - 2 - layoutWidth(plain) - layoutWidth(choice) - layoutWidth(note)));
      if (start + i === this.index) return `\u001b[7m› ${padTo(fit(`${plain}${value}${shown(choice)}${shown(note)}`, width - 2), width - 2)}\u001b[27m`;
      const name = row.editable ? colors.key(fittedName) : colors.dim(fittedName);
      return `  ${name} ${colors.dim(row.source.padEnd(11))} ${value}${colors.dim(shown(`${choice}${note}`))}`;
    });
    if (this.rows.length === 0) lines.push(colors.dim('no variables yet: a adds one to the profile'));
    this.box.setContent([...lines, '', ...detail, colors.dim(fit(FOOTER, width))].join('\n'));
  }

  /** Under the list: the selected variable's options, or why it is not edited here. */
  private detail(width: number): string[] {
    const row = this.selected;
    if (this.removing !== undefined) return [colors.warn(fit(`d again removes ${this.removing} from the profile · any other key keeps it`, width))];
    if (!row) return [];
    if (!row.editable) return [colors.dim(fit(`${row.name} comes from ${row.source === '-e' ? 'the command line (-e)' : row.source === 'session' ? 'the session (a response set it)' : 'the environment file'}: edited there, not here`, width))];
    if (!row.options) return [colors.dim(fit(row.description ?? (row.secret ? 'a secret: its value is never shown' : 'one value: + adds an option to choose from'), width))];
    const options = row.options.map((option, i) => `${i === row.active ? '●' : '○'} ${option.value}${option.aliases.length ? ` (${option.aliases.join(', ')})` : ''}`);
    return [fit(options.join('  '), width)];
  }

  handleKey(ch: string | undefined, key: Key): void {
    const row = this.selected;
    const removing = this.removing;
    this.removing = undefined;
    switch (key.full) {
      case 'escape':
      case 'q':
      case 'v':
        return this.close();
      case 'down':
      case 'j':
        this.index = Math.min(this.rows.length - 1, this.index + 1);
        return this.redraw();
      case 'up':
      case 'k':
        this.index = Math.max(0, this.index - 1);
        return this.redraw();
      case 'a':
        return this.actions.add();
    }
    if (!row) return this.redraw();
    if (!row.editable) return this.redraw();
    switch (ch === '+' ? '+' : key.full) {
      case 'enter':
      case 'e':
        return this.actions.edit(row);
      case 'd':
        if (removing === row.name) return this.actions.remove(row);
        this.removing = row.name;
        return this.redraw();
      case 'right':
      case 'space':
      case 'l':
        return this.actions.cycle(row, 1);
      case 'left':
      case 'h':
        return this.actions.cycle(row, -1);
      case 'o':
        return this.actions.choose(row);
      case '+':
        return this.actions.addOption(row);
      case 'n':
        return this.actions.alias(row);
    }
    this.redraw();
  }
}
