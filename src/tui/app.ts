import { copyToClipboard } from './actions/copy.js';
import { COMMANDS, type CommandHost } from './actions/commands.js';
import type { AppHooks } from './actions/host.js';
import { searchResponseKey } from './actions/response-keys.js';
import { sendRequest, type SendHost } from './actions/send.js';
import { suspendToShell } from './suspend.js';
import { fileChange } from './file-stamp.js';
import { stopEditor } from './actions/edit-request.js';
import { CatalogWatcher } from './catalog-watcher.js';
import type { Blessed, Key, Screen } from './blessed.js';
import type { RequestSpec } from '../core/model.js';
import { rowKey } from './catalog.js';
import { DEFAULT_BINDINGS, keyMap, type Action, type Bindings } from './keymap.js';
import { createPanes, layoutPanes, nextFocus, pageSize, showFocus, type PaneName, type Panes } from './layout.js';
import { requestPaneView } from './panes/request-pane.js';
import { treePaneView } from './panes/tree-pane.js';
import { ResponseView } from './panes/response-view.js';
import { oneLine, problemsMessage, runningMessage, statusBarText, type Level } from './panes/status-bar.js';
import { Previews } from './previews.js';
import { mouseAction, type MouseEvent } from './mouse.js';
import { RequestTree } from './request-tree.js';
import { RequestStates, requestId, type RequestState } from './request-states.js';
import { requestMoves } from './request-moves.js';
import { Throttle, Ticker } from './ticker.js';
import { colors, errorText } from './views/format.js';
import { LayerStack } from './views/layer-stack.js';
import { MAX_PASTE_CHARS, type Paste } from './paste-parser.js';
import type { TextSink } from './terminal-input.js';
import type { Layer } from './views/overlay.js';
import { asReqflowError, type Workspace } from './workspace.js';

/** Actions that move the selection or scroll a pane, and by how much. */
const STEPS: Partial<Record<Action, number>> = { down: 1, up: -1, first: -Infinity, last: Infinity };

/** Streams redraw at most this often, however fast events arrive. */
const REDRAW_MS = 40;

/** The elapsed time of running sends is redrawn this often (only while one runs). */
const ELAPSED_MS = 200;

/**
 * The terminal UI: it draws the workspace (layout.ts, panes/) and maps keys (keymap.ts) to
 * actions (here and in actions/). Every request goes through the same pipeline as
 * `reqflow run` (via {@link Workspace.send}); its response pane is a reporter (pane-reporter.ts).
 */
export class TuiApp implements SendHost, CommandHost, TextSink {
  private readonly panes: Panes;
  private readonly keys: ReadonlyMap<string, Action>;
  private readonly tree = new RequestTree();
  private focus: PaneName = 'tree';
  /** The reload under way, if any: the next one waits for it (see reload). */
  private reloads: Promise<void> = Promise.resolve();
  private filtering = false;
  private showHeaders = false;
  private fullscreen = false;
  private readonly layers = new LayerStack();
  /** Each request's own running send and last response. */
  readonly states = new RequestStates();
  private readonly elapsedClock = new Ticker(ELAPSED_MS, () => this.guard(() => this.drawLive()));
  private readonly previews = new Previews();
  private message: { text: string; level: Level } = { text: '', level: 'info' };
  private readonly redraw = new Throttle(REDRAW_MS, () => this.guard(() => this.drawLive()));
  private readonly clock: NodeJS.Timeout;
  readonly response = new ResponseView(); // the pager over the whole response
  private readonly watcher = new CatalogWatcher(() => this.background(this.reload()));
  private quitting = false;
  private readonly finished: Promise<void>;
  private finish!: () => void;
  oauthCancel: AbortController | undefined;
  stressCancel: AbortController | undefined; // `L` (actions/stress.ts)
  editor: CommandHost['editor']; // `E` (actions/edit-request.ts)

  constructor(
    readonly blessed: Blessed,
    readonly screen: Screen,
    readonly workspace: Workspace,
    readonly hooks: AppHooks = {},
    /** The keys of each action (keymap.ts, changed by keybinds.json). */
    readonly bindings: Bindings = DEFAULT_BINDINGS,
  ) {
    this.keys = keyMap(bindings);
    this.finished = new Promise((resolve) => (this.finish = resolve));
    this.panes = createPanes(blessed, screen);
    screen.on('keypress', (ch, key) => this.onKey(ch, key));
    screen.on('resize', () => this.guard(() => this.relayout()));
    screen.enableMouse();
    screen.on('mouse', (event) => this.guard(() => this.onMouse(event)));
    this.clock = setInterval(() => this.guard(() => this.drawStatus()), 30_000).unref(); // the token countdown stays current
    this.tree.rebuild(workspace.catalog);
    this.watcher.follow(workspace.catalog);
    this.relayout();
    this.say(problemsMessage(this.workspace).text, problemsMessage(this.workspace).level);
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
    this.previews.clear();
    this.drawAll();
  }

  private drawTree(): void {
    const view = treePaneView(this.tree);
    this.panes.tree.setLabel(view.label);
    this.panes.tree.setItems(view.items);
    this.panes.tree.select(view.selected);
  }

  private drawRequest(): void {
    const row = this.tree.selectedRow;
    const exchange = row?.kind === 'request' ? this.states.get(row.spec).shown : undefined;
    const view = requestPaneView({ row, filtered: this.tree.filter.value !== '', root: this.workspace.catalog.root, exchange, context: this.workspace.sendContext(), preview: this.previews.value });
    this.panes.request.setLabel(view.label);
    this.panes.request.setContent(view.content);
    if (view.previewKey === undefined || row?.kind !== 'request') return;
    const ready = (key: string): void => {
      if (this.tree.currentKey() !== key) return;
      this.drawRequest();
      this.render();
    };
    this.previews.schedule(row.spec, view.previewKey, this.workspace, ready, (error) => this.fail(error));
  }

  selectedState(): RequestState {
    const row = this.tree.selectedRow;
    return row?.kind === 'request' ? this.states.get(row.spec) : {};
  }

  readonly selectedSpec = (): RequestSpec | undefined => this.tree.selectedSpec();
  readonly selectedFile = (): string | undefined => this.tree.selectedFile();

  readonly selectedFolder = (): string => this.tree.selectedFolder() ?? this.workspace.catalog.root;

  drawResponse(): void {
    const { workspace } = this;
    const idle = workspace.profileProblem ? errorText(workspace.profileProblem, (t) => t) : colors.dim(`${this.tree.selectedRow?.kind === 'request' ? 'Not sent yet' : 'Select a request'}: Enter sends it. ? lists every key.`);
    this.response.draw(this.panes.response, { request: this.selectedState(), showHeaders: this.showHeaders, now: performance.now(), root: workspace.catalog.root, idle, scrub: (t) => workspace.secrets.scrub(t) });
  }

  /** The live parts: elapsed times and what runs. */
  private drawLive(): void {
    this.drawResponse();
    this.drawStatus();
    this.render();
  }

  private drawStatus(): void {
    const running = runningMessage(this.states.running());
    if (running !== undefined && this.message.level === 'info') this.message.text = running;
    this.panes.status.setContent(
      statusBarText({
        width: this.screen.width,
        profile: this.workspace.profile.name,
        environment: this.workspace.options.environment,
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
    if (key.full === 'C-z') return this.guard(() => suspendToShell(this.screen)); // as a terminal's own Ctrl-Z, from any window
    this.guard(() => {
      const top = this.layers.top;
      const action = this.keys.get(key.full);
      if (top) top.handleKey(ch, key);
      else if (this.filtering) this.filterKey(ch, key);
      else if (action) this.perform(action);
    });
  }

  /**
   * A paste (terminal-input.ts): text for the focused field — the open window's, the filter —
   * inserted as one line at once. It is never keys: with no text field open it is ignored, so
   * a pasted `q` or line break cannot quit, send or confirm anything.
   */
  paste(paste: Paste): void {
    if (this.quitting) return;
    this.guard(() => {
      if (!this.insertText(paste.text)) return this.say('paste ignored: no text field is open', 'warn');
      const lines = paste.text.split(/\r\n|[\r\n]/).filter((line) => line !== '').length;
      if (paste.unfinished) this.say('paste cut short: the terminal never ended it', 'warn');
      else if (paste.dropped > 0) this.say(`paste cut to its first ${MAX_PASTE_CHARS.toLocaleString('en-US')} characters`, 'warn');
      else if (lines > 1) this.say(`pasted ${lines} lines as one: line breaks became spaces`);
    });
  }

  /** Printable characters read at once (terminal-input.ts): true when a text field took them, else they are keys. */
  typed(text: string): boolean {
    if (this.quitting) return true;
    let taken = true; // a field that failed halfway has had them: never keys as well
    this.guard(() => {
      taken = this.insertText(text);
    });
    return taken;
  }

  private insertText(text: string): boolean {
    const top = this.layers.top;
    if (top) return top.insertText?.(text) ?? false;
    if (!this.filtering) return false;
    if (this.tree.filter.insert(text)) this.filterChanged();
    return true;
  }

  /** What each action of the key map does (actions/commands.ts: those that open windows). */
  perform(action: Action): void {
    const step = STEPS[action];
    if (step !== undefined) return this.move(step);
    const command = COMMANDS[action];
    if (command) return command(this);
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
        // A new filter each time (Esc or an empty line shows everything again).
        this.filtering = true;
        this.tree.filter.set('');
        this.tree.rebuild(this.workspace.catalog, this.tree.currentKey());
        return this.drawAll();
      case 'toggle-headers':
        this.showHeaders = !this.showHeaders;
        this.drawResponse();
        return this.say(this.showHeaders ? 'response headers shown (h hides them)' : 'response headers hidden');
      case 'toggle-fullscreen':
        this.fullscreen = !this.fullscreen;
        this.focus = this.fullscreen ? 'response' : 'tree';
        return this.relayout();
    }
  }

  private move(delta: number): void {
    if (this.focus === 'tree') {
      this.tree.move(delta);
      this.panes.tree.select(this.tree.selected);
      this.drawRequest();
      this.response.reset();
      this.drawResponse(); // each request shows its own response
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
    if (row.kind !== 'request') {
      if (row.kind === 'file' && row.file.error) return this.say(asReqflowError(row.file.error).message, 'error');
      this.tree.toggleFold(row.kind === 'file' ? row.file.path : row.path);
      this.tree.rebuild(this.workspace.catalog, rowKey(row));
      return this.drawAll();
    }
    if (this.states.get(row.spec).running) return this.say(`${row.spec.name} is running: Esc cancels it`, 'warn');
    // What is sent is what the file says now: a file changed, deleted or replaced since it was read is not sent from memory.
    const change = fileChange(row.file.path, row.file.label, row.file.stamp);
    if (change === 'changed') this.say(`${row.file.label} changed since it was read: reloaded, not sent — Enter sends it as it is now`, 'warn');
    else if (change !== undefined) this.say(`${change}: not sent`, 'error');
    if (change !== undefined) return this.background(this.reload());
    this.response.reset();
    this.background(sendRequest(this, row.spec, row.file.path));
  }

  private escape(): void {
    const running = this.selectedState().running;
    if (running) {
      running.cancelled = true;
      running.controller.abort();
      return this.say(running.capture.streaming ? 'stopping the stream…' : 'cancelling…', 'warn');
    }
    if (this.stressCancel && !this.stressCancel.signal.aborted) return void (this.stressCancel.abort(), this.say('stopping the stress run…', 'warn'));
    if (this.response.query.clear()) return this.drawLive(); // J's filtered view: the whole body again
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

  /** A click selects a request or focuses a pane; the wheel scrolls the pane under the pointer. */
  private onMouse(event: MouseEvent): void {
    const action = this.layers.top || this.filtering ? undefined : mouseAction(this.panes, event);
    if (!action || (action.kind === 'select' && action.row >= this.tree.rows.length)) return;
    this.focus = action.kind === 'select' ? 'tree' : action.pane;
    showFocus(this.panes, this.focus);
    if (action.kind === 'select') return this.move(action.row - this.tree.selected);
    if (action.kind === 'scroll') return this.move(action.delta);
    this.render();
  }

  private filterKey(ch: string | undefined, key: Key): void {
    if (key.full === 'enter' || key.full === 'escape') {
      this.filtering = false;
      if (key.full === 'escape') this.tree.filter.set('');
    } else if (!this.tree.filter.handle(ch, key)) return;
    this.filterChanged();
  }

  private filterChanged(): void {
    this.tree.rebuild(this.workspace.catalog, this.tree.currentKey());
    this.focus = 'tree';
    this.drawAll();
  }

  // ── actions ────────────────────────────────────────────────────────────────────────────────

  open(layer: Layer): void {
    this.layers.open(layer);
    this.render();
  }

  close(layer: Layer): void {
    this.layers.close(layer);
    this.render();
  }

  readonly isOpen = (layer: Layer): boolean => this.layers.has(layer);

  // ── sends (actions/send.ts) ─────────────────────────────────────────────────────────────────

  get gone(): boolean {
    return this.quitting || this.screen.destroyed === true;
  }

  /** Something arrived for a send: redraw soon. */
  readonly changed = (): void => this.redraw.request();

  sendsChanged(): void {
    this.previews.clear(); // the session may have changed (token extraction)
    this.elapsedClock.set(this.states.running().length > 0);
    if (!this.gone) this.drawAll();
  }

  /** OSC 52 goes straight to the terminal, around neo-blessed's screen buffer. */
  copy(text: string, what: string): void {
    copyToClipboard(this, text, what);
  }

  /**
   * Re-reads the request files (`r`: also the profiles), keeping the selection or selecting `select`.
   * One at a time: two at once (the file watcher's and `r`) both moved each request's state from
   * the same old files — twice, so a request showed the response of the one above it.
   */
  reload(profiles = false, select?: string): Promise<void> {
    const next = this.reloads.then(() => this.reloadNow(profiles, select));
    this.reloads = next.catch(() => undefined);
    return next;
  }

  private async reloadNow(profiles: boolean, select: string | undefined): Promise<void> {
    if (profiles) {
      this.say('reloading…');
      // The profile in use, if a file names it: the implicit `default` of a project without a
      // profiles file is no name to ask the file for ("unknown profile default").
      const { profile, document } = this.workspace;
      await this.workspace.reloadProfiles(document.profiles.includes(profile) ? profile.name : undefined);
    }
    const before = this.workspace.catalog;
    const row = this.tree.selectedRow;
    const shownFile = row && row.kind !== 'folder' ? row.file : undefined;
    await this.workspace.reloadCatalog();
    if (this.gone) return;
    // The file selected is no longer a request file (deleted, a folder, a pipe, a loop of links): said, not just gone.
    if (shownFile && !this.workspace.catalog.files.some((file) => file.path === shownFile.path)) {
      const change = fileChange(shownFile.path, shownFile.label, shownFile.stamp);
      this.say(`${change === undefined || change === 'changed' ? `${shownFile.label} is no longer a request file` : change}: gone from the list, nothing is sent from it`, 'warn');
    }
    // Each request's state and the selection follow the request, not the row (a request added above it moves it).
    const moved = requestMoves(before, this.workspace.catalog);
    this.states.remap(moved);
    const keep = select ?? this.movedKey(moved.moves); // read now: a reload that ran meanwhile may have moved it
    this.tree.rebuild(this.workspace.catalog, keep);
    this.watcher.follow(this.workspace.catalog);
    if (profiles) this.say(problemsMessage(this.workspace).text, problemsMessage(this.workspace).level);
    this.refresh();
  }

  /** The selected row's key once the files are read again: a request's is where the request went. */
  private movedKey(moves: ReadonlyMap<string, string>): string | undefined {
    const row = this.tree.selectedRow;
    if (row?.kind !== 'request') return this.tree.currentKey();
    const to = moves.get(requestId(row.spec));
    const spec = to === undefined ? undefined : this.workspace.catalog.files.find((file) => file.path === row.file.path)?.specs.find((candidate) => requestId(candidate) === to);
    return spec ? rowKey({ ...row, spec }) : this.tree.currentKey();
  }

  /** Cancels what runs and leaves; the caller restores the terminal. */
  async quit(): Promise<void> {
    if (this.quitting) return;
    this.quitting = true;
    for (const exchange of this.states.running()) exchange.controller.abort();
    this.elapsedClock.set(false);
    this.oauthCancel?.abort();
    this.stressCancel?.abort();
    clearInterval(this.clock);
    this.watcher.close();
    this.redraw.cancel();
    this.layers.closeAll();
    if (this.editor) await stopEditor(this.editor); // it has the terminal: the UI restores it once it is back
    this.finish();
  }
}
