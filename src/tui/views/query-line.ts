import type { Element, Key } from '../blessed.js';
import { LineEditor } from '../line-editor.js';
import { colors, fit, visibleLength } from './format.js';
import type { Layer, OverlayHost } from './overlay.js';

/** What the query line reports to its owner. */
export interface QueryLineEvents {
  /** The text settled (typing paused for the debounce delay). */
  changed(expression: string): void;
  /** Enter (`keep`: the filtered view stays) or Esc (the whole body again). */
  closed(keep: boolean, expression: string): void;
}

/**
 * A one-line input over the status bar (restcli's `J` box): typing is debounced, so a large
 * body is evaluated once per pause and not once per key. A problem shows dimmed after the text.
 */
export class QueryLine implements Layer {
  private readonly box: Element;
  private readonly editor = new LineEditor();
  private timer?: NodeJS.Timeout;
  private problem = '';

  constructor(
    private readonly host: OverlayHost,
    private readonly events: QueryLineEvents,
    private readonly debounceMs = 100,
  ) {
    this.box = host.blessed.box({ parent: host.screen, tags: false, height: 1 });
  }

  /** A one-line problem (an invalid expression), or '' when the last one worked. */
  setProblem(problem: string): void {
    this.problem = problem;
    this.draw();
    this.host.render();
  }

  relayout(): void {
    const { width, height } = this.host.screen;
    this.box.width = width;
    this.box.left = 0;
    this.box.top = Math.max(0, height - 1);
    this.box.setFront();
    this.draw();
  }

  private draw(): void {
    const width = this.box.width as number;
    const prompt = 'J ';
    // Measured only while it may fit: a long expression (a paste) takes the whole line anyway.
    const { value } = this.editor;
    const wanted = value.length > width ? width : visibleLength(value) + 2;
    const room = Math.max(10, Math.min(width - prompt.length - 1, Math.max(24, wanted)));
    const input = `${prompt}${this.editor.render(room, { focused: true })}`;
    const rest = width - visibleLength(input) - 2;
    const note = this.problem !== '' ? this.problem : this.editor.value === '' ? 'JMESPath (people[0].name), or JSONPath from $ · Enter keeps · Esc closes' : '';
    this.box.setContent(note !== '' && rest > 4 ? `${input}  ${colors.dim(fit(note, rest))}` : input);
  }

  handleKey(ch: string | undefined, key: Key): void {
    if (key.full === 'escape' || key.full === 'enter') {
      const pending = this.timer !== undefined;
      this.cancelTimer();
      this.host.close(this);
      if (pending && key.full === 'enter') this.events.changed(this.editor.value); // typed faster than the debounce
      return this.events.closed(key.full === 'enter', this.editor.value);
    }
    if (this.editor.handle(ch, key)) this.edited();
  }

  insertText(text: string): boolean {
    if (this.editor.insert(text)) this.edited();
    return true;
  }

  /** The text changed: drawn now, evaluated once typing pauses. */
  private edited(): void {
    this.draw();
    this.host.render();
    this.cancelTimer();
    this.timer = setTimeout(() => {
      delete this.timer;
      this.events.changed(this.editor.value);
    }, this.debounceMs);
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    delete this.timer;
  }

  destroy(): void {
    this.cancelTimer();
    this.box.destroy();
  }
}
