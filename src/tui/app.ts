import { VariableError } from '../core/errors/index.js';
import type { RequestSpec } from '../core/model.js';
import type { Prompter } from '../core/prompt.js';
import type { RequestOutcome } from '../report/reporter.js';
import type { Blessed, Element, Key, ListElement, Screen } from './blessed.js';
import { rowKey, rowLabel, treeRows, type CatalogFile, type TreeRow } from './catalog.js';
import { helpLines } from './keys.js';
import { LineEditor } from './line-editor.js';
import { updateFromForm, type OAuthForm } from './oauth-fields.js';
import type { OAuthLogin } from './oauth-login.js';
import { osc52 } from './osc52.js';
import { previewRequest, sentRequest, type RequestPreview } from './preview.js';
import { saveOAuthSettings } from './profiles-writer.js';
import { ResponseCapture, stripAnsi } from './response-capture.js';
import { describeTokenState } from './token-state.js';
import { colors, errorText, fit, headersText, limitLines, requestText, responseSummary, visibleLength } from './views/format.js';
import { OAuthFormOverlay } from './views/oauth-form.js';
import { PickerOverlay, PromptOverlay, TextOverlay, WaitOverlay, type Layer, type OverlayHost } from './views/overlay.js';
import { asReqflowError, type Workspace } from './workspace.js';

type Pane = 'tree' | 'request' | 'response';
type Level = 'info' | 'ok' | 'warn' | 'error';

/** Lines a pane holds at most: more makes every redraw slow; `y` still copies everything. */
const PANE_LINES = 3000;
/** Streams redraw at most this often, however fast events arrive. */
const REDRAW_MS = 40;

/** The response shown in the response pane: the one running, or the last one. */
interface Exchange {
  spec: RequestSpec;
  file: string;
  capture: ResponseCapture;
  controller: AbortController;
  outcome?: RequestOutcome;
  sent?: RequestPreview;
  /** The user pressed Esc. */
  cancelled?: boolean;
}

export interface AppHooks {
  /** Loads the OAuth plugin's login for `o` (imported on first use). */
  oauthLogin?: () => Promise<OAuthLogin | undefined>;
  /** Opens the authorization URL; default: the system browser (tests simulate one). */
  openBrowser?: (url: string) => Promise<void>;
}

/**
 * The terminal UI: it draws the workspace and maps keys to actions. Every request goes through
 * the same pipeline as `reqflow run` (via {@link Workspace.send}); the UI only shows it.
 */
export class TuiApp implements OverlayHost {
  private readonly tree: ListElement;
  private readonly requestPane: Element;
  private readonly responsePane: Element;
  private readonly statusBar: Element;
  private rows: TreeRow[] = [];
  private selected = 0;
  private focus: Pane = 'tree';
  private readonly collapsed = new Set<string>();
  private readonly filter = new LineEditor();
  private filtering = false;
  private showHeaders = false;
  private fullscreen = false;
  private readonly layers: Layer[] = [];
  private exchange?: Exchange;
  private running = false;
  private preview?: { key: string; text: string };
  private previewSeq = 0;
  private message: { text: string; level: Level } = { text: '', level: 'info' };
  private redrawTimer?: NodeJS.Timeout;
  private readonly clock: NodeJS.Timeout;
  private followStream = true;
  private quitting = false;
  private readonly finished: Promise<void>;
  private finish!: () => void;
  private oauthCancel?: AbortController;

  constructor(
    readonly blessed: Blessed,
    readonly screen: Screen,
    private readonly workspace: Workspace,
    private readonly hooks: AppHooks = {},
  ) {
    this.finished = new Promise((resolve) => (this.finish = resolve));
    const pane = (label: string, scrollable: boolean): Element =>
      blessed.box({
        parent: screen,
        label: ` ${label} `,
        border: { type: 'line' },
        tags: false,
        ...(scrollable ? { scrollable: true, alwaysScroll: true, scrollbar: { ch: ' ', style: { bg: 'grey' } } } : {}),
      });
    this.tree = blessed.list({ parent: screen, label: ' Requests ', border: { type: 'line' }, tags: false, style: { selected: { inverse: true } } });
    this.requestPane = pane('Request', true);
    this.responsePane = pane('Response', true);
    this.statusBar = blessed.box({ parent: screen, height: 1, tags: false, style: { bg: 'blue', fg: 'white' } });
    screen.on('keypress', (ch, key) => this.onKey(ch, key));
    screen.on('resize', () => this.guard(() => this.relayout()));
    // The token countdown in the status bar stays current.
    this.clock = setInterval(() => this.guard(() => this.drawStatus()), 30_000);
    this.clock.unref();
    this.rebuildTree();
    this.relayout();
    this.announceProblems();
  }

  /** Resolves when the user quits. */
  run(): Promise<void> {
    return this.finished;
  }

  // ── drawing ────────────────────────────────────────────────────────────────────────────────

  render(): void {
    if (!this.screen.destroyed) this.screen.render();
  }

  private relayout(): void {
    const { width, height } = this.screen;
    const treeWidth = Math.max(22, Math.min(44, Math.floor(width * 0.34)));
    const body = Math.max(3, height - 1);
    const requestHeight = Math.max(5, Math.min(Math.floor(body * 0.4), 14));
    if (this.fullscreen) {
      this.tree.hide();
      this.requestPane.hide();
      Object.assign(this.responsePane, { left: 0, top: 0, width, height: body });
    } else {
      this.tree.show();
      this.requestPane.show();
      Object.assign(this.tree, { left: 0, top: 0, width: treeWidth, height: body });
      Object.assign(this.requestPane, { left: treeWidth, top: 0, width: width - treeWidth, height: requestHeight });
      Object.assign(this.responsePane, { left: treeWidth, top: requestHeight, width: width - treeWidth, height: body - requestHeight });
    }
    Object.assign(this.statusBar, { left: 0, top: body, width });
    for (const layer of this.layers) layer.relayout();
    this.drawAll();
  }

  private drawAll(): void {
    this.drawFocus();
    this.drawTree();
    this.drawRequest();
    this.drawResponse();
    this.drawStatus();
    this.render();
  }

  private drawFocus(): void {
    const panes: Array<[Pane, Element]> = [
      ['tree', this.tree],
      ['request', this.requestPane],
      ['response', this.responsePane],
    ];
    for (const [name, element] of panes) element.style.border = { fg: name === this.focus ? 'cyan' : 'grey' };
  }

  private drawTree(): void {
    const labels = this.rows.map((row) => rowLabel(row, colors));
    const filterNote = this.filter.value !== '' ? ` /${this.filter.value}` : '';
    this.tree.setLabel(` Requests${filterNote} `);
    this.tree.setItems(labels.length > 0 ? labels : [colors.dim(this.filter.value !== '' ? 'no request matches' : 'no request files here')]);
    this.tree.select(Math.min(this.selected, Math.max(0, labels.length - 1)));
  }

  private selectedRow(): TreeRow | undefined {
    return this.rows[this.selected];
  }

  private drawRequest(): void {
    const row = this.selectedRow();
    if (!row) {
      this.requestPane.setLabel(' Request ');
      const why = this.filter.value !== '' ? 'No request name matches the filter (Esc clears it).' : `No request files (.http, .rest, .yaml, .json) under ${this.workspace.catalog.root}.\nPress r after adding some.`;
      this.requestPane.setContent(colors.dim(why));
      return;
    }
    if (row.kind === 'file') {
      this.requestPane.setLabel(' Request ');
      const { file } = row;
      const detail = file.error
        ? errorText(asReqflowError(file.error), (t) => t)
        : `${file.label}\n${colors.dim(`${file.specs.length} request${file.specs.length === 1 ? '' : 's'} · Enter folds or unfolds`)}`;
      this.requestPane.setContent(detail);
      return;
    }
    this.requestPane.setLabel(` Request · ${fit(row.spec.name, 30)} `);
    const exchange = this.exchange;
    if (exchange?.sent && exchange.spec.name === row.spec.name && exchange.file === row.file.path) {
      this.requestPane.setContent(requestText(exchange.sent, true));
      return;
    }
    const key = rowKey(row);
    if (this.preview?.key === key) this.requestPane.setContent(this.preview.text);
    else {
      this.requestPane.setContent(`${colors.method(row.spec.method)} ${row.spec.url}`);
      this.schedulePreview(row.spec, key);
    }
  }

  /** Substitution may read the session and the environment: computed off the key path. */
  private schedulePreview(spec: RequestSpec, key: string): void {
    const seq = ++this.previewSeq;
    const { profile, session } = this.workspace;
    previewRequest(spec, { profile, session, cliVariables: this.workspace.options.cliVariables, env: this.workspace.config.env })
      .then((preview) => {
        if (seq !== this.previewSeq) return;
        this.preview = { key, text: requestText(preview, false) };
        const row = this.selectedRow();
        if (row && rowKey(row) === key) {
          this.drawRequest();
          this.render();
        }
      })
      .catch((error: unknown) => this.fail(error));
  }

  private drawResponse(): void {
    const exchange = this.exchange;
    const pane = this.responsePane;
    if (!exchange) {
      pane.setLabel(' Response ');
      const problem = this.workspace.profileProblem;
      pane.setContent(problem ? errorText(problem, (t) => t) : colors.dim('Select a request and press Enter to send it. ? lists every key.'));
      return;
    }
    const { capture, outcome } = exchange;
    const width = (pane.width as number) - 4;
    let label = ' Response ';
    if (capture.meta) label = ` ${responseSummary(capture.meta)} `;
    if (this.running) label = capture.streaming ? ` ${capture.meta ? `${responseSummary(capture.meta)} · ` : ''}streaming… Esc stops ` : ' sending… Esc cancels ';
    pane.setLabel(visibleLength(label) > width ? ` ${fit(stripAnsi(label).trim(), width - 2)} ` : label);
    const parts: string[] = [];
    if (outcome?.error && !exchange.cancelled) parts.push(errorText(outcome.error, (t) => this.workspace.secrets.scrub(t)), '');
    if (exchange.cancelled && !capture.streaming) parts.push(colors.warn('cancelled'), '');
    for (const warning of capture.warnings) parts.push(colors.warn(`warning: ${this.workspace.secrets.scrub(warning)}`));
    if (capture.warnings.length > 0) parts.push('');
    if (this.showHeaders && capture.meta) parts.push(headersText(capture.meta), '');
    const { text, cut } = limitLines(capture.shown(), PANE_LINES, capture.streaming);
    if (cut > 0 && capture.streaming) parts.push(colors.dim(`… ${cut} earlier lines not shown`));
    parts.push(text);
    if (cut > 0 && !capture.streaming) parts.push(colors.dim(`… ${cut} more lines not shown (y copies the whole body)`));
    if (capture.truncated) parts.push(colors.dim('… the response is larger than the pane keeps'));
    pane.setContent(parts.join('\n'));
    if (capture.streaming && this.followStream) pane.scrollTo(pane.getScrollHeight());
  }

  private drawStatus(): void {
    const width = this.screen.width;
    const { profile } = this.workspace;
    const left = ` ${profile.name} │ token: ${describeTokenState(this.workspace.tokenState())} │ `;
    const right = ' ? help ';
    let middle: string;
    const exchange = this.exchange;
    if (this.running && exchange && this.message.level === 'info') {
      const name = exchange.spec.name;
      this.message.text = exchange.capture.streaming ? `streaming ${name}… Esc stops` : `sending ${name}… Esc cancels`;
    }
    if (this.filtering) middle = `/${this.filter.render(Math.max(5, width - left.length - right.length - 2), { focused: true })}`;
    else {
      const room = Math.max(0, width - left.length - right.length);
      const text = fit(this.message.text, room);
      const paint = { info: (t: string) => t, ok: (t: string) => `\u001b[1m${t}\u001b[22m`, warn: (t: string) => `\u001b[33;1m${t}\u001b[39;22m`, error: (t: string) => `\u001b[41;97m${t}\u001b[49;39m` }[this.message.level];
      middle = paint(text);
    }
    const gap = Math.max(0, width - visibleLength(left) - visibleLength(middle) - right.length);
    this.statusBar.setContent(`${left}${middle}${' '.repeat(gap)}${right}`);
  }

  private say(text: string, level: Level = 'info'): void {
    // Paths under the folder read shorter relative to it: the status bar is one line.
    const root = `${this.workspace.catalog.root}/`;
    const short = root.length > 1 ? text.split(root).join('') : text;
    this.message = { text: this.workspace.secrets.scrub(short.replace(/\s*\n\s*/g, ' ')), level };
    this.drawStatus();
    this.render();
  }

  private scheduleRedraw(): void {
    if (this.redrawTimer) return;
    this.redrawTimer = setTimeout(() => {
      delete this.redrawTimer;
      this.guard(() => {
        this.drawResponse();
        this.drawStatus();
        this.render();
      });
    }, REDRAW_MS);
  }

  private announceProblems(): void {
    const broken = this.workspace.catalog.files.filter((f) => f.error);
    if (this.workspace.profileProblem) this.say(`profiles: ${this.workspace.profileProblem.message}`, 'error');
    else if (broken.length === 1) this.say(`${broken[0]?.label} could not be read (select it for details)`, 'error');
    else if (broken.length > 1) this.say(`${broken.length} files could not be read: ${broken.map((f) => f.label).join(', ')}`, 'error');
    else if (this.workspace.catalog.truncated) this.say('showing the first 400 request files only', 'warn');
    else this.say(`${this.workspace.catalog.files.length} request file${this.workspace.catalog.files.length === 1 ? '' : 's'} · Enter sends · ? help`);
  }

  // ── keys ───────────────────────────────────────────────────────────────────────────────────

  /** Errors in a handler become a status message: the UI never crashes. */
  private guard(action: () => void): void {
    try {
      action();
    } catch (error) {
      this.fail(error);
    }
  }

  /** Async actions run beside the key loop; whatever they throw ends up in the status bar. */
  private background(action: Promise<void>): void {
    action.catch((error: unknown) => this.fail(error));
  }

  private fail(error: unknown): void {
    if (this.screen.destroyed) return;
    const problem = asReqflowError(error);
    this.say(problem.message, 'error');
  }

  private onKey(ch: string | undefined, key: Key): void {
    // A carriage return arrives both as `return` and `enter`: act on `enter` only.
    if (key.full === 'return' || this.quitting) return;
    if (key.full === 'C-c') return this.background(this.quit());
    this.guard(() => {
      const top = this.layers[this.layers.length - 1];
      if (top) top.handleKey(ch, key);
      else if (this.filtering) this.filterKey(ch, key);
      else this.mainKey(key);
    });
  }

  private mainKey(key: Key): void {
    switch (key.full) {
      case 'q':
        return this.background(this.quit());
      case 'tab':
      case 'S-tab': {
        const order: Pane[] = this.fullscreen ? ['response'] : ['tree', 'request', 'response'];
        const at = order.indexOf(this.focus);
        this.focus = order[(at + (key.full === 'tab' ? 1 : order.length - 1)) % order.length] ?? 'tree';
        this.drawFocus();
        return this.render();
      }
      case 'down':
      case 'j':
        return this.move(1);
      case 'up':
      case 'k':
        return this.move(-1);
      case 'pagedown':
        return this.move(this.pageSize());
      case 'pageup':
        return this.move(-this.pageSize());
      case 'g':
      case 'home':
        return this.move(-Infinity);
      case 'S-g':
      case 'G':
      case 'end':
        return this.move(Infinity);
      case 'enter':
        return this.activate();
      case 'escape':
        return this.escape();
      case '/':
        this.filtering = true;
        this.drawStatus();
        return this.render();
      case 'p':
        return this.background(this.pickProfile());
      case 'v':
        return this.showVariables();
      case 'h':
        this.showHeaders = !this.showHeaders;
        this.drawResponse();
        return this.say(this.showHeaders ? 'response headers shown (h hides them)' : 'response headers hidden');
      case 'f':
        this.fullscreen = !this.fullscreen;
        this.focus = this.fullscreen ? 'response' : 'tree';
        return this.relayout();
      case 'y':
        return this.copyBody();
      case '?':
        return this.open(new TextOverlay(this, 'Keys', helpLines));
      case 'S-o':
      case 'O':
        return this.openOAuthForm();
      case 'o':
        return this.background(this.oauthLogin());
      case 'r':
        return this.background(this.reload());
      default:
        return;
    }
  }

  private pageSize(): number {
    return Math.max(1, ((this.focus === 'tree' ? this.tree.height : this.focus === 'request' ? this.requestPane.height : this.responsePane.height) as number) - 3);
  }

  private move(delta: number): void {
    if (this.focus === 'tree') {
      const last = Math.max(0, this.rows.length - 1);
      this.selected = Math.max(0, Math.min(last, delta === Infinity ? last : delta === -Infinity ? 0 : this.selected + delta));
      this.tree.select(this.selected);
      this.drawRequest();
      return this.render();
    }
    const pane = this.focus === 'request' ? this.requestPane : this.responsePane;
    if (delta === -Infinity) pane.scrollTo(0);
    else if (delta === Infinity) pane.scrollTo(pane.getScrollHeight());
    else pane.scroll(delta);
    if (pane === this.responsePane) this.followStream = delta === Infinity;
    this.render();
  }

  private activate(): void {
    const row = this.selectedRow();
    if (!row) return;
    if (row.kind === 'file') {
      if (row.file.error) return this.say(asReqflowError(row.file.error).message, 'error');
      if (this.collapsed.has(row.file.path)) this.collapsed.delete(row.file.path);
      else this.collapsed.add(row.file.path);
      this.rebuildTree(rowKey(row));
      return this.drawAll();
    }
    this.background(this.send(row.spec, row.file));
  }

  private escape(): void {
    if (this.running && this.exchange) {
      this.exchange.cancelled = true;
      this.exchange.controller.abort();
      return this.say(this.exchange.capture.streaming ? 'stopping the stream…' : 'cancelling…', 'warn');
    }
    if (this.fullscreen) {
      this.fullscreen = false;
      this.focus = 'tree';
      return this.relayout();
    }
    if (this.filter.value !== '') {
      this.filter.set('');
      this.rebuildTree(this.currentKey());
      return this.drawAll();
    }
  }

  private filterKey(ch: string | undefined, key: Key): void {
    if (key.full === 'enter' || key.full === 'escape') {
      this.filtering = false;
      if (key.full === 'escape') this.filter.set('');
    } else if (!this.filter.handle(ch, key)) return;
    this.rebuildTree(this.currentKey());
    this.focus = 'tree';
    this.drawAll();
  }

  private currentKey(): string | undefined {
    const row = this.selectedRow();
    return row ? rowKey(row) : undefined;
  }

  /** Rebuilds the rows (filter, folding, reload), keeping the selection on the same row when it is still there. */
  private rebuildTree(keepKey?: string): void {
    this.rows = treeRows(this.workspace.catalog, { filter: this.filter.value, collapsed: this.collapsed });
    const at = keepKey === undefined ? -1 : this.rows.findIndex((row) => rowKey(row) === keepKey);
    if (at >= 0) this.selected = at;
    else {
      // Prefer the first request over its file row: Enter then sends at once.
      const firstRequest = this.rows.findIndex((row) => row.kind === 'request');
      this.selected = this.filter.value !== '' && firstRequest >= 0 ? firstRequest : Math.min(this.selected, Math.max(0, this.rows.length - 1));
    }
  }

  // ── actions ────────────────────────────────────────────────────────────────────────────────

  open(layer: Layer): void {
    this.layers.push(layer);
    layer.relayout();
    this.render();
  }

  close(layer: Layer): void {
    const index = this.layers.indexOf(layer);
    if (index >= 0) this.layers.splice(index, 1);
    layer.destroy();
    this.render();
  }

  /** The modal the pipeline asks interactive variables through. */
  private prompter(signal: AbortSignal): Prompter {
    return (request) =>
      new Promise((resolve, reject) => {
        const overlay = new PromptOverlay(this, request, (value) => {
          signal.removeEventListener('abort', onAbort);
          if (value === undefined) reject(new VariableError(`prompt for "${request.name}" was cancelled`, { hint: `pass it with -e ${request.name}=value, or answer the prompt` }));
          else {
            if (request.secret) this.workspace.secrets.add(value);
            resolve(value);
          }
        });
        const onAbort = (): void => overlay.cancel();
        signal.addEventListener('abort', onAbort, { once: true });
        this.open(overlay);
      });
  }

  private async send(spec: RequestSpec, file: CatalogFile): Promise<void> {
    if (this.running) return this.say('a request is running: Esc cancels it', 'warn');
    const controller = new AbortController();
    const capture = new ResponseCapture(() => this.scheduleRedraw());
    const exchange: Exchange = { spec, file: file.path, capture, controller };
    this.exchange = exchange;
    this.running = true;
    this.followStream = true;
    this.responsePane.scrollTo(0);
    this.message = { text: '', level: 'info' };
    this.drawAll();
    const tokenBefore = this.workspace.session.get('token');
    const outcome = await this.workspace.send(spec, file.path, { capture, prompter: this.prompter(controller.signal), signal: controller.signal });
    this.running = false;
    this.preview = undefined; // the session may have changed (token extraction)
    exchange.outcome = outcome;
    if (outcome.sent && outcome.response) exchange.sent = sentRequest(outcome.sent, this.workspace.secrets);
    if (this.quitting || this.screen.destroyed) return;
    this.reportOutcome(exchange, tokenBefore);
    this.drawAll();
  }

  private reportOutcome(exchange: Exchange, tokenBefore: string | undefined): void {
    const { outcome, capture } = exchange;
    if (!outcome) return;
    const tokenAfter = this.workspace.session.get('token');
    if (exchange.cancelled && (capture.streaming || outcome.streamEndedByUser === true)) return this.say('stream stopped', 'warn');
    if (exchange.cancelled) return this.say(`cancelled ${exchange.spec.name}`, 'warn');
    if (outcome.error) return this.say(outcome.error.message, 'error');
    const meta = capture.meta;
    const summary = meta ? `${meta.status} ${meta.statusText}`.trim() : 'done';
    if (tokenAfter !== undefined && tokenAfter !== tokenBefore) return this.say(`${summary} · token stored in the session as {{token}}`, 'ok');
    if (capture.warnings.length > 0) return this.say(`${summary} · warning: ${capture.warnings[capture.warnings.length - 1]}`, 'warn');
    this.say(`${summary} · ${exchange.spec.name}`, outcome.exitCode === 0 ? 'ok' : 'warn');
  }

  private copyBody(): void {
    const capture = this.exchange?.capture;
    if (!capture || (!capture.meta && capture.shown() === '')) return this.say('nothing to copy yet: send a request first', 'warn');
    const text = capture.copyText();
    if (text === '') return this.say('the body is empty or binary: nothing copied', 'warn');
    this.copy(text, 'response body');
  }

  /** OSC 52 goes straight to the terminal, around neo-blessed's screen buffer. */
  private copy(text: string, what: string): void {
    const { sequence, truncated } = osc52(text);
    this.screen.program.output.write(sequence);
    this.say(truncated ? `copied the first 512 kB of the ${what} (OSC 52)` : `copied the ${what} to the clipboard (OSC 52)`, 'ok');
  }

  private async pickProfile(): Promise<void> {
    await this.workspace.reloadProfiles(this.workspace.profile.name);
    const { profiles } = this.workspace.document;
    if (this.workspace.profileProblem) return this.say(`profiles: ${this.workspace.profileProblem.message}`, 'error');
    if (profiles.length === 0) return this.say('no .profiles.json found: create one beside your request files (O creates one with OAuth settings)', 'warn');
    const names = profiles.map((p) => p.name);
    const current = names.indexOf(this.workspace.profile.name);
    const items = names.map((name, i) => (i === current ? `${name}  (current)` : name));
    this.open(
      new PickerOverlay(this, 'Profile', items, current, (index) => {
        const name = names[index];
        if (name !== undefined) this.background(this.switchProfile(name));
      }),
    );
  }

  private async switchProfile(name: string): Promise<void> {
    await this.workspace.switchProfile(name);
    this.preview = undefined;
    this.say(`profile ${name}`, 'ok');
    this.drawAll();
  }

  private showVariables(): void {
    const rows = this.workspace.variables();
    const nameWidth = Math.min(24, Math.max(8, ...rows.map((r) => r.name.length)));
    const lines = rows.length === 0 ? [colors.dim('no variables: set them with -e, in the profile\'s "variables", or from a response')] : [];
    for (const row of rows) {
      const source = row.source.padEnd(8);
      lines.push(`${colors.key(fit(row.name, nameWidth).padEnd(nameWidth))} ${colors.dim(source)} ${fit(row.value.replace(/\n/g, ' '), 36)}${row.note ? colors.dim(`  ${row.note}`) : ''}`);
    }
    this.open(new TextOverlay(this, `Variables · profile ${this.workspace.profile.name}`, lines));
  }

  private openOAuthForm(): void {
    const path = this.workspace.profilesFileForSaving();
    const profile = this.workspace.profile;
    this.open(
      new OAuthFormOverlay(this, { profile: profile.name, path, existing: profile.oauth }, async (form: OAuthForm) => {
        await saveOAuthSettings(path, profile.name, updateFromForm(form));
        await this.workspace.reloadProfiles(profile.name);
        this.preview = undefined;
        this.say(`OAuth settings of ${profile.name} saved into ${path}`, 'ok');
        this.drawAll();
      }),
    );
  }

  private async oauthLogin(): Promise<void> {
    const profile = this.workspace.profile;
    if (!profile.oauth) return this.say(`profile ${profile.name} has no oauth settings: press O to add them`, 'warn');
    if (this.oauthCancel) return this.say('a login is already waiting', 'warn');
    const login = await this.hooks.oauthLogin?.();
    if (!login) return this.say('OAuth login is not available in this build', 'error');
    const controller = new AbortController();
    this.oauthCancel = controller;
    if (typeof profile.oauth.clientSecret === 'string') this.workspace.secrets.add(profile.oauth.clientSecret);
    const grant = profile.oauth.grant ?? 'authorization_code';
    let copyable = '';
    const warnings: string[] = [];
    let lines = [grant === 'client_credentials' ? 'Fetching a token with the client credentials…' : 'Starting the authorization flow…'];
    const overlay = new WaitOverlay(this, `OAuth login · ${profile.name}`, lines, {
      onCancel: () => controller.abort(),
      copy: () => (copyable ? this.copy(copyable, 'URL') : undefined),
    });
    const show = (next: string[]): void => {
      lines = next;
      overlay.update([...lines, ...warnings.map((w) => colors.warn(`warning: ${w}`))]);
    };
    this.open(overlay);
    try {
      await login({
        profile,
        session: await this.workspace.loadSession(),
        signal: controller.signal,
        env: this.workspace.config.env,
        ...(this.hooks.openBrowser ? { openBrowser: this.hooks.openBrowser } : {}),
        warn: (message) => {
          warnings.push(message);
          show(lines);
        },
        onPrompt: (prompt) => {
          if (prompt.type === 'url') {
            copyable = prompt.url;
            return show(['Grant access in the browser; this window closes by itself when you are done.', 'If no browser opened, open this URL (y copies it):', '', prompt.url]);
          }
          copyable = prompt.verificationUriComplete ?? prompt.verificationUri;
          show([`Open ${prompt.verificationUri} in a browser and enter the code:`, '', `    ${colors.bold(prompt.userCode)}`, '', ...(prompt.verificationUriComplete ? [`(or open ${prompt.verificationUriComplete})`] : [])]);
        },
      });
      await this.workspace.refreshSession();
      this.preview = undefined;
      if (this.layers.includes(overlay)) overlay.dismiss();
      this.say(`logged in: token stored in the session as {{token}}, ${describeTokenState(this.workspace.tokenState())}`, 'ok');
    } catch (error) {
      if (controller.signal.aborted) {
        if (this.layers.includes(overlay)) overlay.dismiss();
        this.say('OAuth login cancelled', 'warn');
      } else {
        const problem = asReqflowError(error);
        if (this.layers.includes(overlay)) overlay.finish([errorText(problem, (t) => this.workspace.secrets.scrub(t))]);
        this.say(problem.message, 'error');
      }
    } finally {
      delete this.oauthCancel;
      this.drawAll();
    }
  }

  private async reload(): Promise<void> {
    const keep = this.currentKey();
    this.say('reloading…');
    await this.workspace.reloadProfiles(this.workspace.profile.name);
    await this.workspace.reloadCatalog();
    this.preview = undefined;
    this.rebuildTree(keep);
    this.announceProblems();
    this.drawAll();
  }

  /** Cancels what runs and leaves; the caller restores the terminal. */
  async quit(): Promise<void> {
    if (this.quitting) return;
    this.quitting = true;
    this.exchange?.controller.abort();
    this.oauthCancel?.abort();
    clearInterval(this.clock);
    if (this.redrawTimer) clearTimeout(this.redrawTimer);
    for (const layer of this.layers.splice(0)) layer.destroy();
    this.finish();
  }
}
