import type { RequestSpec } from '../core/model.js';
import { openOAuthSettings, runOAuthLogin } from './actions/oauth.js';
import { copyToClipboard } from './actions/copy.js';
import { editRequest, type EditHost } from './actions/edit-request.js';
import { fileAction, type FilesHost } from './actions/request-files.js';
import { responseAction, searchResponseKey, type ResponseHost } from './actions/response-keys.js';
import { CatalogWatcher } from './catalog-watcher.js';
import { modalPrompter } from './actions/prompt.js';
import { pickProfile, showVariables } from './actions/profiles.js';
import type { AppHooks, AppHost } from './actions/host.js';
import type { Blessed, Key, Screen } from './blessed.js';
import { rowKey, rowLabel, type CatalogFile } from './catalog.js';
import type { Exchange } from './exchange.js';
import { helpLines, KEYMAP, type Action } from './keymap.js';
import { createPanes, layoutPanes, nextFocus, pageSize, showFocus, type PaneName, type Panes } from './layout.js';
import { requestPaneView } from './panes/request-pane.js';
import { ResponseView } from './panes/response-view.js';
import { outcomeMessage } from './panes/outcome-message.js';
import { oneLine, problemsMessage, statusBarText, type Level } from './panes/status-bar.js';
import { previewRequest, sentRequest } from './preview.js';
import { RequestTree } from './request-tree.js';
import { ResponseCapture } from './response-capture.js';
import { Throttle } from './throttle.js';
import { colors, errorText, requestText } from './views/format.js';
import { LayerStack } from './views/layer-stack.js';
import { TextOverlay, type Layer } from './views/overlay.js';
import { asReqflowError, type Workspace } from './workspace.js';

/** Actions that move the selection or scroll a pane, and by how much. */
const STEPS: Partial<Record<Action, number>> = { down: 1, up: -1, first: -Infinity, last: Infinity };

/** Streams redraw at most this often, however fast events arrive. */
const REDRAW_MS = 40;

/**
 * The terminal UI: it draws the workspace (layout.ts, panes/) and maps keys (keymap.ts) to
 * actions (here and in actions/). Every request goes through the same pipeline as
 * `reqflow run` (via {@link Workspace.send}); its response pane is a reporter (pane-reporter.ts).
 */
export class TuiApp implements ResponseHost, EditHost, FilesHost {
  private readonly panes: Panes;
  private readonly tree = new RequestTree();
  private focus: PaneName = 'tree';
  private filtering = false;
  private showHeaders = false;
  private fullscreen = false;
  private readonly layers = new LayerStack();
  exchange?: Exchange;
  private running = false;
  private preview?: { key: string; text: string };
  private previewSeq = 0;
  private message: { text: string; level: Level } = { text: '', level: 'info' };
  private readonly redraw = new Throttle(REDRAW_MS, () => this.guard(() => (this.drawResponse(), this.drawStatus(), this.render())));
  private readonly clock: NodeJS.Timeout;
  /** Request files changed from outside (an editor, git) are reloaded. */
  private readonly watcher = new CatalogWatcher(() => this.background(this.reload()));
  /** The response pane's window over the whole body. */
  readonly response = new ResponseView();
  private quitting = false;
  private readonly finished: Promise<void>;
  private finish!: () => void;
  oauthCancel: AbortController | undefined;

  constructor(
    readonly blessed: Blessed,
    readonly screen: Screen,
    readonly workspace: Workspace,
    readonly hooks: AppHooks = {},
  ) {
    this.finished = new Promise((resolve) => (this.finish = resolve));
    this.panes = createPanes(blessed, screen);
    screen.on('keypress', (ch, key) => this.onKey(ch, key));
    screen.on('resize', () => this.guard(() => this.relayout()));
    // The token countdown in the status bar stays current.
    this.clock = setInterval(() => this.guard(() => this.drawStatus()), 30_000);
    this.clock.unref();
    this.tree.rebuild(workspace.catalog);
    this.watcher.follow(workspace.catalog);
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
    layoutPanes(this.panes, this.screen, this.fullscreen);
    this.layers.relayout();
    this.drawAll();
  }

  private drawAll(): void {
    showFocus(this.panes, this.focus);
    this.drawTree();
    this.drawRequest();
    this.drawResponse();
    this.drawStatus();
    this.render();
  }

  /** The profile or the session changed: previews are recomputed. */
  refresh(): void {
    this.preview = undefined;
    this.drawAll();
  }

  private drawTree(): void {
    const { tree } = this.panes;
    const filter = this.tree.filter.value;
    const labels = this.tree.rows.map((row) => rowLabel(row, colors));
    tree.setLabel(` Requests${filter !== '' ? ` /${filter}` : ''} `);
    tree.setItems(labels.length > 0 ? labels : [colors.dim(filter !== '' ? 'no request matches' : 'no request files here')]);
    tree.select(Math.min(this.tree.selected, Math.max(0, labels.length - 1)));
  }

  private drawRequest(): void {
    const row = this.tree.selectedRow;
    const view = requestPaneView({ row, filtered: this.tree.filter.value !== '', root: this.workspace.catalog.root, exchange: this.exchange, preview: this.preview });
    this.panes.request.setLabel(view.label);
    this.panes.request.setContent(view.content);
    if (view.previewKey !== undefined && row?.kind === 'request') this.schedulePreview(row.spec, view.previewKey);
  }

  /** Substitution may read the session and the environment: computed off the key path. */
  private schedulePreview(spec: RequestSpec, key: string): void {
    const seq = ++this.previewSeq;
    const { profile, session } = this.workspace;
    previewRequest(spec, { profile, session, cliVariables: this.workspace.options.cliVariables, env: this.workspace.config.env })
      .then((preview) => {
        if (seq !== this.previewSeq) return;
        this.preview = { key, text: requestText(preview, false) };
        if (this.tree.currentKey() === key) {
          this.drawRequest();
          this.render();
        }
      })
      .catch((error: unknown) => this.fail(error));
  }

  drawResponse(): void {
    const { exchange, running, showHeaders, workspace } = this;
    this.response.draw(this.panes.response, { exchange, running, showHeaders, problem: workspace.profileProblem, scrub: (t) => workspace.secrets.scrub(t) });
  }

  private drawStatus(): void {
    const exchange = this.exchange;
    if (this.running && exchange && this.message.level === 'info') {
      const name = exchange.spec.name;
      this.message.text = exchange.capture.streaming ? `streaming ${name}… Esc stops` : `sending ${name}… Esc cancels`;
    }
    this.panes.status.setContent(
      statusBarText({
        width: this.screen.width,
        profile: this.workspace.profile.name,
        token: this.workspace.tokenState(),
        message: this.message,
        ...(this.filtering ? { editing: (room: number) => `/${this.tree.filter.render(room, { focused: true })}` } : {}),
      }),
    );
  }

  say(text: string, level: Level = 'info'): void {
    this.message = { text: this.workspace.secrets.scrub(oneLine(text, this.workspace.catalog.root)), level };
    this.drawStatus();
    this.render();
  }

  private announceProblems(): void {
    const { text, level } = problemsMessage(this.workspace);
    this.say(text, level);
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

  background(action: Promise<void>): void {
    action.catch((error: unknown) => this.fail(error));
  }

  private fail(error: unknown): void {
    if (this.screen.destroyed) return;
    this.say(asReqflowError(error).message, 'error');
  }

  private onKey(ch: string | undefined, key: Key): void {
    // A carriage return arrives both as `return` and `enter`: act on `enter` only.
    if (key.full === 'return' || this.quitting) return;
    if (key.full === 'C-c') return this.background(this.quit());
    this.guard(() => {
      const top = this.layers.top;
      const action = KEYMAP[key.full];
      if (top) top.handleKey(ch, key);
      else if (this.filtering) this.filterKey(ch, key);
      else if (action) this.act(action);
    });
  }

  /** What each action of the key map does. */
  private act(action: Action): void {
    if (responseAction(this, action) || fileAction(this, action, this.tree.selectedRow?.file.path)) return;
    const step = STEPS[action];
    if (step !== undefined) return this.move(step);
    switch (action) {
      case 'quit':
        return this.background(this.quit());
      case 'focus-next':
      case 'focus-previous':
        this.focus = nextFocus(this.focus, this.fullscreen, action === 'focus-next');
        showFocus(this.panes, this.focus);
        return this.render();
      case 'page-down':
      case 'page-up':
        return this.move((action === 'page-down' ? 1 : -1) * pageSize(this.panes, this.focus));
      case 'activate':
        return this.activate();
      case 'escape':
        return this.escape();
      case 'filter':
        if (this.focus === 'response') return searchResponseKey(this);
        this.filtering = true;
        this.drawStatus();
        return this.render();
      case 'pick-profile':
        return this.background(pickProfile(this));
      case 'variables':
        return showVariables(this);
      case 'toggle-headers':
        this.showHeaders = !this.showHeaders;
        this.drawResponse();
        return this.say(this.showHeaders ? 'response headers shown (h hides them)' : 'response headers hidden');
      case 'toggle-fullscreen':
        this.fullscreen = !this.fullscreen;
        this.focus = this.fullscreen ? 'response' : 'tree';
        return this.relayout();
      case 'help':
        return this.open(new TextOverlay(this, 'Keys', helpLines));
      case 'oauth-settings':
        return openOAuthSettings(this);
      case 'oauth-login':
        return this.background(runOAuthLogin(this));
      case 'reload':
        return this.background(this.reload(true));
      case 'edit':
        return editRequest(this, this.tree.selectedRow?.kind === 'request' ? this.tree.selectedRow.spec : undefined, this.tree.selectedRow?.file.path);
    }
  }

  private move(delta: number): void {
    if (this.focus === 'tree') {
      this.tree.move(delta);
      this.panes.tree.select(this.tree.selected);
      this.drawRequest();
      return this.render();
    }
    if (this.focus === 'response') {
      this.response.move(delta);
      this.drawResponse();
      return this.render();
    }
    const pane = this.panes.request;
    if (delta === -Infinity) pane.scrollTo(0);
    else if (delta === Infinity) pane.scrollTo(pane.getScrollHeight());
    else pane.scroll(delta);
    this.render();
  }

  private activate(): void {
    const row = this.tree.selectedRow;
    if (!row) return;
    if (row.kind === 'file') {
      if (row.file.error) return this.say(asReqflowError(row.file.error).message, 'error');
      this.tree.toggleFold(row.file.path);
      this.tree.rebuild(this.workspace.catalog, rowKey(row));
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
    if (this.tree.filter.value !== '') {
      this.tree.filter.set('');
      this.tree.rebuild(this.workspace.catalog, this.tree.currentKey());
      return this.drawAll();
    }
  }

  private filterKey(ch: string | undefined, key: Key): void {
    if (key.full === 'enter' || key.full === 'escape') {
      this.filtering = false;
      if (key.full === 'escape') this.tree.filter.set('');
    } else if (!this.tree.filter.handle(ch, key)) return;
    this.tree.rebuild(this.workspace.catalog, this.tree.currentKey());
    this.focus = 'tree';
    this.drawAll();
  }

  // ── actions ────────────────────────────────────────────────────────────────────────────────

  open(layer: Layer): void {
    this.layers.push(layer);
    this.render();
  }

  close(layer: Layer): void {
    this.layers.remove(layer);
    this.render();
  }

  isOpen(layer: Layer): boolean {
    return this.layers.has(layer);
  }

  private async send(spec: RequestSpec, file: CatalogFile): Promise<void> {
    if (this.running) return this.say('a request is running: Esc cancels it', 'warn');
    const controller = new AbortController();
    const capture = new ResponseCapture(() => this.redraw.request());
    const exchange: Exchange = { spec, file: file.path, capture, controller };
    this.exchange = exchange;
    this.running = true;
    this.response.reset();
    this.message = { text: '', level: 'info' };
    this.drawAll();
    const tokenBefore = this.workspace.session.get('token');
    const outcome = await this.workspace.send(spec, file.path, { capture, prompter: modalPrompter(this, controller.signal), signal: controller.signal });
    this.running = false;
    this.preview = undefined; // the session may have changed (token extraction)
    exchange.outcome = outcome;
    if (outcome.sent && outcome.response) exchange.sent = sentRequest(outcome.sent, this.workspace.secrets);
    if (this.quitting || this.screen.destroyed) return;
    const said = outcomeMessage(exchange, tokenBefore, this.workspace.session.get('token'));
    if (said) this.say(said.text, said.level);
    this.drawAll();
  }

  /** A response from elsewhere (the history) in the response pane. */
  showExchange(exchange: Exchange): void {
    if (this.running) return this.say('a request is running: Esc cancels it', 'warn');
    this.exchange = exchange;
    this.response.reset();
    this.drawAll();
  }

  /** OSC 52 goes straight to the terminal, around neo-blessed's screen buffer. */
  readonly copy = (text: string, what: string): void => copyToClipboard(this, text, what);

  /** Re-reads the request files (`r`: the profiles too), keeping the selection (or selecting `select`); the editor, the watcher, file keys call it. */
  async reload(profiles = false, select?: string): Promise<void> {
    const keep = select ?? this.tree.currentKey();
    if (profiles) {
      this.say('reloading…');
      await this.workspace.reloadProfiles(this.workspace.profile.name);
    }
    await this.workspace.reloadCatalog();
    if (this.quitting) return;
    this.tree.rebuild(this.workspace.catalog, keep);
    this.watcher.follow(this.workspace.catalog);
    if (profiles) this.announceProblems();
    this.refresh();
  }

  /** Cancels what runs and leaves; the caller restores the terminal. */
  async quit(): Promise<void> {
    if (this.quitting) return;
    this.quitting = true;
    this.exchange?.controller.abort();
    this.oauthCancel?.abort();
    clearInterval(this.clock);
    this.watcher.close();
    this.redraw.cancel();
    this.layers.destroyAll();
    this.finish();
  }
}
