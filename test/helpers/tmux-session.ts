/**
 * The built `reqflow` in a real terminal: a tmux server of its own (one socket per session, so
 * tests never see each other's), keys sent as a user types them, the screen read back, and the
 * terminal's modes after reqflow has gone. reqflow runs under a small Node wrapper that records
 * its pid, exit code or signal and stderr in files — the wrapper outlives a closed terminal
 * (it ignores SIGHUP), so even that exit is seen. After reqflow, the pane's shell prints the
 * keyboard mode (`stty`) and waits. Tests that use this need tmux (`needs(['tmux'])`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN } from './cli.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs argv with the terminal as stdin and stdout, stderr to a file; writes the child's pid, then `code signal`. */
const WRAPPER = `'use strict';
const { spawn } = require('node:child_process');
const { openSync, writeFileSync } = require('node:fs');
const [pidFile, exitFile, errFile, ...argv] = process.argv.slice(2);
for (const signal of ['SIGHUP', 'SIGTERM', 'SIGINT']) process.on(signal, () => {});
const child = spawn(argv[0], argv.slice(1), { stdio: ['inherit', 'inherit', openSync(errFile, 'w')] });
writeFileSync(pidFile, String(child.pid));
child.on('exit', (code, signal) => {
  writeFileSync(exitFile, code + ' ' + signal);
  process.exit(0);
});
`;

/** What a terminal is left in: each is how tmux sees the pane now. */
export interface TerminalModes {
  alternateScreen: boolean;
  cursorVisible: boolean;
  mouse: boolean;
  keypad: boolean;
}

export interface TmuxSession {
  screen(): string;
  /** Keys one at a time (tmux key names: `Enter`, `Escape`, `C-c`, or text). */
  press(...keys: string[]): Promise<void>;
  /**
   * Pastes `text` as a terminal does (tmux's paste-buffer: each line break sent as CR), marked
   * as a paste when the program turned bracketed paste on — unless `bracketed` is false: a
   * terminal without bracketed paste.
   */
  paste(text: string, options?: { bracketed?: boolean }): void;
  /**
   * Whether bracketed paste is on in the pane now: a word is pasted and read back as the
   * terminal echoes it — wrapped in `^[[200~` … `^[[201~` when it is on. For a program that
   * leaves the keyboard cooked and echoing (the shell's `sleep` after reqflow, an editor script);
   * the line is then discarded (Ctrl-U).
   */
  bracketedPaste(): Promise<boolean>;
  waitFor(test: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  resize(columns: number, rows: number): void;
  modes(): TerminalModes;
  /** reqflow's pid, once it runs. */
  pid(): Promise<number>;
  /** How reqflow ended (`129 null`, `null SIGABRT`), waited for up to `timeoutMs`; undefined when it is still running. */
  exit(timeoutMs?: number): Promise<string | undefined>;
  /** What reqflow wrote on stderr. */
  stderr(): string;
  /** Every byte the programs in the pane wrote to the terminal so far (tmux's pipe-pane). */
  written(): Buffer;
  /** Closes the terminal, as closing its window does (the pane's processes get SIGHUP). */
  closeTerminal(): void;
  /** Ends the tmux server and whatever still runs in it. */
  kill(): void;
}

/**
 * Starts `reqflow ARGS` in `dir` on a `columns`×`rows` terminal. `shell` goes before the
 * command (`setsid -w`, `TERM=dumb`); `env` adds variables to the pane. `jobControl`: the
 * command is typed into an interactive bash, a job of its own (Ctrl-Z stops it, `fg` goes on);
 * otherwise the pane runs it directly, and no shell manages it (an orphaned process group).
 */
export function tmuxSession(dir: string, options: { name: string; columns?: number; rows?: number; args?: string[]; env?: Record<string, string>; shell?: string; jobControl?: boolean }): TmuxSession {
  const socket = `reqflow-jest-${process.pid}-${options.name}`;
  const tmux = (...args: string[]): string => execFileSync('tmux', ['-u', '-L', socket, ...args], { encoding: 'utf8' });
  const files = { wrapper: join(dir, '.wrapper.cjs'), pid: join(dir, '.reqflow.pid'), exit: join(dir, '.reqflow.exit'), err: join(dir, '.reqflow.err'), paste: join(dir, '.paste.txt'), output: join(dir, '.terminal.out'), job: join(dir, '.job.sh') };
  let probes = 0;
  writeFileSync(files.wrapper, WRAPPER);
  const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
  const reqflow = [process.execPath, BIN, ...(options.args ?? [])].map(quote).join(' ');
  const command = `cd ${quote(dir)} && ${options.shell ?? ''} ${quote(process.execPath)} ${quote(files.wrapper)} ${quote(files.pid)} ${quote(files.exit)} ${quote(files.err)} ${reqflow}; stty -a | tr ' ;' '\\n\\n' | grep -E -- '^-?(icanon|echo|isig)$' | tr '\\n' ' '; echo '<stty'; sleep 120`;
  const env = { NCURSES_NO_UTF8_ACS: '1', LANG: 'C.UTF-8', HOME: dir, REQFLOW_STATE_DIR: join(dir, 'state'), ...options.env };
  const shellEnv = options.jobControl ? { PS1: '$ ', HISTFILE: '/dev/null' } : {};
  writeFileSync(files.job, `${command}\n`);
  tmux('new-session', '-d', '-s', 'ui', '-x', String(options.columns ?? 100), '-y', String(options.rows ?? 30), ...Object.entries({ ...env, ...shellEnv }).flatMap(([name, value]) => ['-e', `${name}=${value}`]), options.jobControl ? 'bash --norc --noprofile -i' : command);
  tmux('pipe-pane', '-o', '-t', 'ui', `cat >> ${quote(files.output)}`);
  if (options.jobControl) tmux('send-keys', '-t', 'ui', `sh ${quote(files.job)}`, 'Enter');
  const screen = (): string => tmux('capture-pane', '-p', '-t', 'ui');
  const session: TmuxSession = {
    screen,
    async press(...keys) {
      for (const key of keys) {
        tmux('send-keys', '-t', 'ui', key);
        await sleep(150); // a lone Escape followed at once by a key would read as Alt+key
      }
    },
    async waitFor(test, what, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      while (Date.now() < deadline) {
        last = screen();
        if (test(last)) return last;
        await sleep(100);
      }
      throw new Error(`${what}: never on screen\n--- screen ---\n${last}\n--- stderr ---\n${session.stderr()}`);
    },
    paste(text, { bracketed = true } = {}) {
      writeFileSync(files.paste, text);
      tmux('load-buffer', '-b', 'paste', files.paste);
      tmux('paste-buffer', '-d', ...(bracketed ? ['-p'] : []), '-b', 'paste', '-t', 'ui');
    },
    async bracketedPaste() {
      probes += 1;
      const word = `PASTEPROBE${probes}X`;
      session.paste(word);
      const echoed = await session.waitFor((s) => s.includes(word), 'the pasted word echoed');
      // Ctrl-U: the line discarded, its echo erased, so neither is read or seen by what comes next.
      tmux('send-keys', '-t', 'ui', 'C-u');
      for (let i = 0; i < 20 && screen().includes(word); i++) await sleep(100);
      return echoed.includes(`^[[200~${word}^[[201~`);
    },
    resize(columns, rows) {
      tmux('resize-window', '-t', 'ui', '-x', String(columns), '-y', String(rows));
    },
    modes() {
      const [alternate, cursor, mouseAny, mouseButton, mouseStandard, keypad] = tmux('display-message', '-p', '-t', 'ui', '#{alternate_on} #{cursor_flag} #{mouse_any_flag} #{mouse_button_flag} #{mouse_standard_flag} #{keypad_cursor_flag}').trim().split(' ');
      return { alternateScreen: alternate === '1', cursorVisible: cursor === '1', mouse: [mouseAny, mouseButton, mouseStandard].includes('1'), keypad: keypad === '1' };
    },
    async pid() {
      for (let i = 0; i < 150 && !existsSync(files.pid); i++) await sleep(100);
      return Number(readFileSync(files.pid, 'utf8'));
    },
    async exit(timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (existsSync(files.exit)) return readFileSync(files.exit, 'utf8');
        await sleep(100);
      }
      return undefined;
    },
    stderr: () => (existsSync(files.err) ? readFileSync(files.err, 'utf8') : ''),
    written: () => (existsSync(files.output) ? readFileSync(files.output) : Buffer.alloc(0)),
    closeTerminal() {
      tmux('kill-server');
    },
    kill() {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    },
  };
  return session;
}

/** Is the process still there? */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
