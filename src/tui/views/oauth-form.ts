import type { OAuthSettings } from '../../core/model.js';
import type { Key } from '../blessed.js';
import { LineEditor } from '../line-editor.js';
import { OAUTH_FIELDS, formFromSettings, nextGrant, validateOAuthForm, type OAuthFieldKey, type OAuthForm } from '../oauth-fields.js';
import { colors, fit } from './format.js';
import { Overlay, type OverlayHost } from './overlay.js';

const LABEL_WIDTH = 19;

/**
 * `O`: the profile's `oauth` settings as a form. Tab/↓ and S-Tab/↑ move between fields,
 * Enter validates and saves (through `onSave`), Esc closes without saving.
 */
export class OAuthFormOverlay extends Overlay {
  private readonly editors: Record<OAuthFieldKey, LineEditor>;
  private field = 0;
  private problems: Partial<Record<OAuthFieldKey, string>> = {};
  private note = '';

  constructor(
    host: OverlayHost,
    private readonly context: { profile: string; path: string; existing: OAuthSettings | undefined },
    private readonly onSave: (form: OAuthForm) => Promise<void>,
  ) {
    super(host, `OAuth settings · profile ${context.profile}`, { width: 78, height: OAUTH_FIELDS.length + 6 });
    const form = formFromSettings(context.existing);
    this.editors = Object.fromEntries(OAUTH_FIELDS.map((f) => [f.key, new LineEditor(form[f.key])])) as Record<OAuthFieldKey, LineEditor>;
  }

  private values(): OAuthForm {
    return Object.fromEntries(OAUTH_FIELDS.map((f) => [f.key, this.editors[f.key].value])) as OAuthForm;
  }

  protected draw(): void {
    const inputWidth = Math.max(10, this.innerWidth - LABEL_WIDTH - 2);
    const lines = OAUTH_FIELDS.map((f, index) => {
      const focused = index === this.field;
      const label = `${focused ? '›' : ' '} ${f.label}`.padEnd(LABEL_WIDTH);
      // The grant is chosen, not typed: ←/→ (or Space) cycles through the grants.
      const input = f.key === 'grant' ? `‹ ${this.editors.grant.value} ›${focused ? colors.dim('  ←/→ changes') : ''}` : this.editors[f.key].render(inputWidth, { secret: f.secret, focused, placeholder: f.placeholder });
      return `${this.problems[f.key] ? colors.error(label) : focused ? colors.bold(label) : label} ${input}`;
    });
    const problem = OAUTH_FIELDS.find((f) => this.problems[f.key]);
    lines.push('');
    lines.push(problem ? colors.error(fit(`✗ ${problem.label} ${this.problems[problem.key]}`, this.innerWidth)) : this.note ? this.note : '');
    lines.push(colors.dim(fit(`saves into ${this.context.path}`, this.innerWidth)));
    lines.push(colors.dim('Tab/↓ next · S-Tab/↑ previous · Enter saves · Esc cancels'));
    this.box.setContent(lines.join('\n'));
  }

  handleKey(ch: string | undefined, key: Key): void {
    switch (key.full) {
      case 'escape':
        return this.close();
      case 'tab':
      case 'down':
        this.field = (this.field + 1) % OAUTH_FIELDS.length;
        break;
      case 'S-tab':
      case 'up':
        this.field = (this.field + OAUTH_FIELDS.length - 1) % OAUTH_FIELDS.length;
        break;
      case 'enter':
        return void this.submit();
      default: {
        const current = OAUTH_FIELDS[this.field];
        if (current?.key === 'grant') {
          if (key.full !== 'left' && key.full !== 'right' && key.full !== 'space') return;
          this.editors.grant.set(nextGrant(this.editors.grant.value, key.full === 'left' ? -1 : 1));
          delete this.problems.deviceUrl;
          break;
        }
        if (!current || !this.editors[current.key].handle(ch, key)) return;
        delete this.problems[current.key];
      }
    }
    this.redraw();
  }

  insertText(text: string): boolean {
    const current = OAUTH_FIELDS[this.field];
    if (!current || current.key === 'grant') return false; // chosen with ←/→, not typed
    if (this.editors[current.key].insert(text)) delete this.problems[current.key];
    this.redraw();
    return true;
  }

  private async submit(): Promise<void> {
    const form = this.values();
    this.problems = validateOAuthForm(form, this.context.existing);
    const first = OAUTH_FIELDS.findIndex((f) => this.problems[f.key]);
    if (first >= 0) {
      this.field = first;
      return this.redraw();
    }
    this.note = colors.dim('saving…');
    this.redraw();
    try {
      await this.onSave(form);
      this.close();
    } catch (error) {
      this.note = colors.error(fit(`✗ ${(error as Error).message}`, this.innerWidth));
      this.redraw();
    }
  }
}
