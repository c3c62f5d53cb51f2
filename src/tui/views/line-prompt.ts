import type { Key } from '../blessed.js';
import { LineEditor } from '../line-editor.js';
import { colors, fit } from './format.js';
import { Overlay, type OverlayHost } from './overlay.js';

/** Asks for one line of text (a search, a path): Enter answers, Esc cancels (undefined). */
export class LinePromptOverlay extends Overlay {
  private readonly editor: LineEditor;

  constructor(
    host: OverlayHost,
    title: string,
    private readonly text: { question: string; initial?: string; footer?: string; secret?: boolean },
    private readonly onAnswer: (value: string | undefined) => void,
  ) {
    super(host, title, { width: 72, height: 7 });
    this.editor = new LineEditor(text.initial ?? '');
  }

  protected draw(): void {
    this.box.setContent(
      [fit(this.text.question, this.innerWidth), `› ${this.editor.render(this.innerWidth - 2, { focused: true, secret: this.text.secret === true })}`, '', colors.dim(this.text.footer ?? 'Enter · Esc cancels')].join('\n'),
    );
  }

  handleKey(ch: string | undefined, key: Key): void {
    if (key.full === 'escape' || key.full === 'enter') {
      this.close();
      return this.onAnswer(key.full === 'enter' ? this.editor.value : undefined);
    }
    if (this.editor.handle(ch, key)) this.redraw();
  }

  insertText(text: string): boolean {
    if (this.editor.insert(text)) this.redraw();
    return true;
  }
}
