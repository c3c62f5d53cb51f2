import type { Blessed, Element, Key, Screen } from '../blessed.js';
import { LineEditor } from '../line-editor.js';
import { colors, fit, padTo, shown } from './format.js';

/** What an overlay needs from the app: the widgets factory and a way to leave. */
export interface OverlayHost {
  readonly blessed: Blessed;
  readonly screen: Screen;
  render(): void;
  /** Removes the overlay (top of the stack) and gives keys back to what is below. */
  close(layer: Layer): void;
}

/** Something on top of the main screen that takes the keys while it is open. */
export interface Layer {
  handleKey(ch: string | undefined, key: Key): void;
  /**
   * Text pasted, or typed in one read, for the focused text field, inserted at once (one
   * redraw, however long); false when the layer has no text field focused (then a paste is
   * ignored and typed text is keys).
   */
  insertText?(text: string): boolean;
  /** Fits to the screen and draws: when opened and after a resize. */
  relayout(): void;
  destroy(): void;
}

/** A centred, bordered box that fits the screen (80×24 at least). */
export abstract class Overlay implements Layer {
  protected readonly box: Element;
  private readonly scrollable: boolean;

  constructor(
    protected readonly host: OverlayHost,
    title: string,
    private readonly size: { width: number; height: number },
    options: { scrollable?: boolean } = {},
  ) {
    this.scrollable = options.scrollable === true;
    this.box = host.blessed.box({
      parent: host.screen,
      label: ` ${shown(title)} `, // titles name profiles and files: the project's text
      border: { type: 'line' },
      tags: false,
      style: { border: { fg: 'cyan' } },
      padding: { left: 1, right: 1 },
      ...(options.scrollable ? { scrollable: true, alwaysScroll: true, scrollbar: { ch: ' ', style: { bg: 'cyan' } } } : {}),
    });
  }

  /** Columns available for text inside the border, the padding and the scroll bar. */
  protected get innerWidth(): number {
    return (this.box.width as number) - (this.scrollable ? 5 : 4);
  }

  relayout(): void {
    const { width: cols, height: rows } = this.host.screen;
    const width = Math.max(20, Math.min(this.size.width, cols - 2));
    const height = Math.max(5, Math.min(this.size.height, rows - 2));
    this.box.width = width;
    this.box.height = height;
    this.box.left = Math.max(0, Math.floor((cols - width) / 2));
    this.box.top = Math.max(0, Math.floor((rows - 1 - height) / 2));
    this.box.setFront();
    this.draw();
  }

  protected abstract draw(): void;

  /** Draws the overlay again and puts it on the screen. */
  protected redraw(): void {
    this.draw();
    this.host.render();
  }
  abstract handleKey(ch: string | undefined, key: Key): void;

  protected close(): void {
    this.host.close(this);
  }

  destroy(): void {
    this.box.destroy();
  }
}

/**
 * Scrolling text (help, variables): arrows, PgUp/PgDn, Esc/q/Enter closes. `lines` may be a
 * function of the width, so the text re-wraps when the terminal is resized.
 */
export class TextOverlay extends Overlay {
  constructor(
    host: OverlayHost,
    title: string,
    private readonly lines: string[] | ((width: number) => string[]),
    width = 78,
  ) {
    super(host, title, { width, height: (typeof lines === 'function' ? lines(width - 5) : lines).length + 3 }, { scrollable: true });
  }

  protected draw(): void {
    const lines = typeof this.lines === 'function' ? this.lines(this.innerWidth) : this.lines;
    this.box.setContent([...lines, colors.dim('Esc closes')].join('\n'));
  }

  handleKey(_ch: string | undefined, key: Key): void {
    const page = Math.max(1, (this.box.height as number) - 3);
    switch (key.full) {
      case 'escape':
      case 'q':
      case 'enter':
      case '?':
      case 'v':
        return this.close();
      case 'down':
      case 'j':
        this.box.scroll(1);
        break;
      case 'up':
      case 'k':
        this.box.scroll(-1);
        break;
      case 'pagedown':
      case 'space':
        this.box.scroll(page);
        break;
      case 'pageup':
        this.box.scroll(-page);
        break;
      default:
        return;
    }
    this.host.render();
  }
}

/** Picks one item of a list (profiles): arrows or j/k, Enter picks, Esc closes. */
export class PickerOverlay extends Overlay {
  private index: number;

  constructor(
    host: OverlayHost,
    title: string,
    private readonly items: string[],
    current: number,
    private readonly onPick: (index: number) => void,
    private readonly footer = 'Enter picks · Esc closes',
  ) {
    super(host, title, { width: Math.max(40, ...items.map((item) => item.length + 10)), height: items.length + 4 });
    this.index = Math.max(0, current);
  }

  protected draw(): void {
    const height = (this.box.height as number) - 3;
    const start = Math.max(0, Math.min(this.index - height + 1, this.items.length - height));
    const lines = this.items.slice(start, start + height).map((item, i) => {
      const text = fit(shown(item), this.innerWidth - 2);
      return start + i === this.index ? `\u001b[7m› ${padTo(text, this.innerWidth - 2)}\u001b[27m` : `  ${text}`;
    });
    this.box.setContent([...lines, colors.dim(this.footer)].join('\n'));
  }

  handleKey(_ch: string | undefined, key: Key): void {
    switch (key.full) {
      case 'escape':
      case 'q':
        return this.close();
      case 'enter':
        this.close();
        return this.onPick(this.index);
      case 'down':
      case 'j':
        this.index = Math.min(this.items.length - 1, this.index + 1);
        break;
      case 'up':
      case 'k':
        this.index = Math.max(0, this.index - 1);
        break;
      default:
        return;
    }
    this.redraw();
  }
}

/** Asks for one value (an interactive variable); secret values are drawn as bullets. */
export class PromptOverlay extends Overlay {
  private readonly editor = new LineEditor();

  constructor(
    host: OverlayHost,
    private readonly request: { name: string; defaultValue: string; secret: boolean },
    private readonly onAnswer: (value: string | undefined) => void,
  ) {
    super(host, `Value of ${request.name}`, { width: 64, height: 7 });
  }

  protected draw(): void {
    const { defaultValue, secret } = this.request;
    const shownDefault = defaultValue === '' ? '' : secret ? ' (Enter keeps the default: •••)' : ` (Enter keeps: ${defaultValue})`;
    this.box.setContent(
      [
        fit(`${this.request.name}${secret ? ' — hidden input' : ''}${this.editor.value === '' ? shownDefault : ''}`, this.innerWidth),
        `› ${this.editor.render(this.innerWidth - 2, { secret, focused: true })}`,
        '',
        colors.dim('Enter sends · Esc cancels the request'),
      ].join('\n'),
    );
  }

  handleKey(ch: string | undefined, key: Key): void {
    if (key.full === 'escape') {
      this.close();
      return this.onAnswer(undefined);
    }
    if (key.full === 'enter') {
      this.close();
      return this.onAnswer(this.editor.value === '' ? this.request.defaultValue : this.editor.value);
    }
    if (this.editor.handle(ch, key)) this.redraw();
  }

  insertText(text: string): boolean {
    if (this.editor.insert(text)) this.redraw();
    return true;
  }

  /** Closed from outside (the request was cancelled). */
  cancel(): void {
    this.close();
  }
}

/**
 * Shows progress of a long step (the OAuth browser flow): its text wraps, so a long URL is shown
 * whole; `y` copies the URL (OSC 52) since a wrapped URL cannot be selected cleanly. Esc cancels.
 */
export class WaitOverlay extends Overlay {
  constructor(
    host: OverlayHost,
    title: string,
    private lines: string[],
    private readonly actions: { onCancel: () => void; copy?: () => void },
  ) {
    super(host, title, { width: 78, height: 16 });
  }

  private finished = false;

  update(lines: string[]): void {
    this.lines = lines;
    this.redraw();
  }

  /** The step ended without success: the window stays as a detail pane until Esc. */
  finish(lines: string[]): void {
    this.finished = true;
    this.update(lines);
  }

  protected draw(): void {
    const footer = this.finished ? 'Esc closes' : this.actions.copy ? 'y copies the URL · Esc cancels' : 'Esc cancels';
    this.box.setContent([...this.lines, '', colors.dim(footer)].join('\n'));
  }

  handleKey(_ch: string | undefined, key: Key): void {
    if (key.full === 'escape' || key.full === 'q' || (this.finished && key.full === 'enter')) {
      this.close();
      if (!this.finished) this.actions.onCancel();
    } else if (key.full === 'y' && !this.finished) this.actions.copy?.();
  }

  dismiss(): void {
    this.close();
  }
}
