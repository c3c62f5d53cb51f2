/**
 * Drives the real terminal UI headlessly: fake terminal streams (a TTY-like input that records
 * raw mode, an output with columns/rows that records what is written), keys written as the
 * escape sequences a terminal sends, and the screen read back as text.
 */
import { afterEach } from '@jest/globals';
import { PassThrough, Writable } from 'node:stream';
import { toRunOptions } from '../../src/cli/run-options.js';
import { screenText } from '../../src/tui/blessed.js';
import type { AppHooks } from '../../src/tui/actions/host.js';
import { openTui, type OpenTui } from '../../src/tui/index.js';
import type { WorkspaceOptions } from '../../src/tui/workspace.js';

const KEYS: Record<string, string> = {
  up: '\u001b[A',
  down: '\u001b[B',
  right: '\u001b[C',
  left: '\u001b[D',
  enter: '\r',
  tab: '\t',
  'S-tab': '\u001b[Z',
  escape: '\u001b',
  backspace: '\u007f',
  pagedown: '\u001b[6~',
  pageup: '\u001b[5~',
  'C-c': '\u0003',
};

class FakeInput extends PassThrough {
  isTTY = true;
  isRaw = false;
  setRawMode(mode: boolean): this {
    this.isRaw = mode;
    return this;
  }
}

class FakeOutput extends Writable {
  isTTY = true;
  written = '';
  constructor(
    public columns = 80,
    public rows = 24,
  ) {
    super({ decodeStrings: false });
  }
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.written += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (this.written.length > 4_000_000) this.written = this.written.slice(-1_000_000);
    callback();
  }
}

export interface Harness {
  tui: OpenTui;
  input: FakeInput;
  output: FakeOutput;
  /** The screen as text, rows joined by newlines (trailing spaces trimmed). */
  text(): string;
  /** Presses keys one by one: names from {@link KEYS}, or single characters. */
  press(...keys: string[]): Promise<void>;
  /** Types text, one character per key press (as a user does). */
  type(text: string): Promise<void>;
  /** Waits until the screen matches (bounded); throws with the screen when it never does. */
  waitFor(match: string | RegExp | ((screen: string) => boolean), timeoutMs?: number): Promise<string>;
  resize(columns: number, rows: number): Promise<void>;
  /** The status bar (last row). */
  status(): string;
  close(): Promise<void>;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function startHarness(config: { dir: string; env: NodeJS.ProcessEnv; variables?: string[]; scriptTimeout?: string; profile?: string; profilesPath?: string; columns?: number; rows?: number; terminal?: string }, hooks?: AppHooks): Promise<Harness> {
  const input = new FakeInput();
  const output = new FakeOutput(config.columns ?? 80, config.rows ?? 24);
  const options: WorkspaceOptions = {
    dir: config.dir,
    cwd: config.dir,
    env: config.env,
    options: toRunOptions({ output: 'pretty', color: true, timeout: '5000', ...(config.variables ? { variable: config.variables } : {}), ...(config.scriptTimeout ? { 'script-timeout': config.scriptTimeout } : {}) }, { stdoutIsTTY: true, stdinIsTTY: true, env: config.env }),
    ...(config.profile ? { profile: config.profile } : {}),
    ...(config.profilesPath ? { profilesPath: config.profilesPath } : {}),
  };
  const tui = await openTui(options, { input, output, terminal: config.terminal ?? 'xterm-256color', resizeTimeout: 1 }, hooks);
  const text = (): string => screenText(tui.screen);
  const harness: Harness = {
    tui,
    input,
    output,
    text,
    status: () => text().split('\n').pop() ?? '',
    async press(...keys) {
      for (const key of keys) {
        const control = /^C-([a-z])$/.exec(key);
        input.write(KEYS[key] ?? (control ? String.fromCharCode((control[1] as string).charCodeAt(0) - 96) : key));
        await tick();
        await tick();
      }
    },
    async type(value) {
      for (const ch of value) await harness.press(ch);
    },
    async waitFor(match, timeoutMs = 5000) {
      const test = typeof match === 'function' ? match : (screen: string) => (typeof match === 'string' ? screen.includes(match) : match.test(screen));
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const screen = text();
        if (test(screen)) return screen;
        if (Date.now() > deadline) throw new Error(`screen never matched ${String(match)}:\n${screen}`);
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    },
    async resize(columns, rows) {
      output.columns = columns;
      output.rows = rows;
      output.emit('resize');
      await harness.waitFor(() => tui.screen.width === columns && tui.screen.height === rows && text().split('\n').length === rows, 2000);
    },
    async close() {
      await tui.app.quit();
      tui.close();
    },
  };
  await harness.waitFor((screen) => screen.includes('Requests'));
  return harness;
}

/** An environment cut off from the user's: HOME is the test folder, the state under `stateDir`. */
export function isolatedEnv(dir: string, stateDir = `${dir}/state`): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: dir, REQFLOW_STATE_DIR: stateDir };
}

/**
 * {@link startHarness} for a test file: every UI a test opens is closed after it (closing twice
 * is harmless). Call it at the top level of the file.
 */
export function harnessPerTest(): typeof startHarness {
  const opened: Harness[] = [];
  afterEach(async () => {
    for (const harness of opened.splice(0)) await harness.close();
  });
  return async (config, hooks) => {
    const harness = await startHarness(config, hooks);
    opened.push(harness);
    return harness;
  };
}

/** Selects the request named `name` in the tree, from the top (`g`, then `j` until its pane shows it). */
export async function selectRequest(h: Harness, name: string, tries = 30): Promise<void> {
  const shown = new RegExp(`Request · ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\w)`);
  await h.press('g');
  for (let i = 0; i < tries; i++) {
    if (shown.test(h.text())) return;
    await h.press('j');
  }
  throw new Error(`request "${name}" not found:\n${h.text()}`);
}

/** Selects the request named `name`, sends it, and waits until `shown` (its answer) is on the screen. */
export async function sendRequest(h: Harness, name: string, shown: string): Promise<string> {
  await selectRequest(h, name);
  await h.press('enter');
  return h.waitFor(shown);
}
