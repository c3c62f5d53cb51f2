/**
 * The terminal UI against hostile terminals, from the attacker's side: the built `reqflow` in
 * tmux (a real terminal), its window closed under it, signals while an editor has the
 * terminal, no controlling terminal, `TERM=dumb`, tiny sizes and resize storms, and request
 * files whose names and headers carry escape sequences or characters wider than they look.
 * After every exit the terminal must be back as it was: no alternate screen, the cursor shown,
 * no mouse tracking, no bracketed paste, the keyboard cooked. Needs a build and tmux: without tmux the file is
 * skipped with one line on stderr (test/helpers/system-programs.ts).
 */
import { afterAll, afterEach, beforeAll, describe as always, expect, test as alwaysTest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ROOT, tempDir } from '../helpers/cli.js';
import { needs } from '../helpers/system-programs.js';
import { alive, tmuxSession, type TmuxSession } from '../helpers/tmux-session.js';
import { startDemoApi, type DemoApi } from '../servers/demo-api.js';

const { describe, test } = needs(['tmux']);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let api: DemoApi;
let dir: ReturnType<typeof tempDir>;
let session: TmuxSession | undefined;
let editorPid: number | undefined;

beforeAll(async () => {
  api = await startDemoApi();
});
afterAll(async () => {
  await api.close();
});
afterEach(async () => {
  let pid: number | undefined;
  // A busy machine may take a while to answer: without the pid, the folder could go while reqflow still writes.
  if (session) pid = await Promise.race([session.pid(), sleep(2000).then(() => undefined)]);
  session?.kill();
  session = undefined;
  for (const other of [pid, editorPid]) if (other !== undefined && alive(other)) process.kill(other, 'SIGKILL');
  editorPid = undefined;
  // reqflow writes its files (code cache, state) as it exits: the folder goes after it has.
  for (let i = 0; pid !== undefined && alive(pid) && i < 100; i++) await sleep(50);
  dir?.cleanup();
});

/** A project with one ordinary request and one whose name is wide, joined and right-to-left. */
function project(): void {
  dir = tempDir('reqflow-hostile-term-');
  dir.write('users.http', `### list users\nGET ${api.url}/users\n\n### 漢字👨‍👩‍👧‍👦🇯🇵 é͉ שלום\ttab\nGET ${api.url}/users\n`);
}

function open(options: Parameters<typeof tmuxSession>[1]): TmuxSession {
  session = tmuxSession(dir.dir, options);
  return session;
}

const firstScreen = (s: string): boolean => s.includes('users.http') && s.includes('? help');

/** The terminal as the user had it before reqflow: what every exit must leave. */
async function expectRestored(ui: TmuxSession): Promise<void> {
  const screen = await ui.waitFor((s) => s.includes('<stty'), 'the shell after reqflow');
  expect(screen).toMatch(/(^| )isig icanon echo <stty/m);
  expect(ui.modes()).toEqual({ alternateScreen: false, cursorVisible: true, mouse: false, keypad: false });
  expect(await ui.bracketedPaste()).toBe(false); // a paste into the shell would come wrapped in ^[[200~ … ^[[201~
}

describe('the terminal goes away or the UI is stopped', () => {
  test('closing the terminal (SIGHUP) while a response is shown: exit 129, no abort, no stack trace', async () => {
    project();
    const ui = open({ name: 'hup' });
    await ui.waitFor(firstScreen, 'the first screen');
    await ui.press('j', 'Enter');
    await ui.waitFor((s) => s.includes('200 OK'), 'the response');
    ui.closeTerminal();
    // Node restores a terminal's settings as it exits, and aborts (SIGABRT, a native stack) when the terminal is gone.
    expect({ exit: await ui.exit(20_000), stderr: ui.stderr() }).toEqual({ exit: '129 null', stderr: '' });
  });

  test('SIGHUP sent with kill while the terminal is still there: exit 129, the terminal restored', async () => {
    project();
    const ui = open({ name: 'kill-hup' });
    await ui.waitFor(firstScreen, 'the first screen');
    process.kill(await ui.pid(), 'SIGHUP');
    expect({ exit: await ui.exit(20_000), stderr: ui.stderr() }).toEqual({ exit: '129 null', stderr: '' });
    await expectRestored(ui);
  });

  test('SIGTERM while the editor (E) has the terminal: the editor is stopped, the terminal restored, exit 143 — no hang', async () => {
    project();
    const editor = join(dir.dir, 'editor.sh');
    writeFileSync(editor, `#!/bin/sh\necho $$ > '${dir.dir}/editor.pid'\necho EDITOR-OPEN "$@"\nsleep 60\n`, { mode: 0o755 });
    const ui = open({ name: 'term-editor', env: { EDITOR: editor, VISUAL: editor } });
    await ui.waitFor(firstScreen, 'the first screen');
    await ui.press('j', 'E');
    await ui.waitFor((s) => s.includes('EDITOR-OPEN'), 'the editor');
    expect(await ui.bracketedPaste()).toBe(false); // the editor's terminal, not the UI's: an editor that knows nothing of it would get the markers
    editorPid = Number(readFileSync(join(dir.dir, 'editor.pid'), 'utf8'));
    process.kill(await ui.pid(), 'SIGTERM');
    expect(await ui.exit()).toBe('143 null');
    expect(alive(editorPid)).toBe(false);
    await expectRestored(ui);
    expect(ui.stderr()).toBe('');
  });

  test.each([
    ['q', 'q', '0 null'],
    ['Ctrl-C', 'C-c', '0 null'],
    ['SIGTERM', 'SIGTERM', '143 null'],
    ['SIGINT', 'SIGINT', '130 null'],
  ])('%s with a modal open after a failed request: the terminal restored, the exit code documented', async (_name, how, code) => {
    project();
    writeFileSync(join(dir.dir, 'users.http'), '### refused\nGET http://127.0.0.1:1/nothing\n');
    const ui = open({ name: `quit-${how}` });
    await ui.waitFor((s) => s.includes('refused') && s.includes('? help'), 'the first screen');
    await ui.press('j', 'Enter');
    await ui.waitFor((s) => /exits with 4/.test(s), 'the failure');
    await ui.press(':');
    await ui.waitFor((s) => s.includes('Commands'), 'the palette');
    if (how.startsWith('SIG')) process.kill(await ui.pid(), how);
    else await ui.press('Escape', how);
    expect(await ui.exit()).toBe(code);
    await expectRestored(ui);
    expect(ui.stderr()).toBe('');
  });
});

/** The state of process `pid` as /proc tells it: `T` when stopped. */
function processState(pid: number): string {
  return /^\d+ \(.*\) (\S)/s.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1] ?? '?';
}

describe('Ctrl-Z', () => {
  test('suspends to the shell: the terminal given back (alternate screen left, cursor shown, mouse, keypad and bracketed paste off), the process stopped; fg takes the terminal again, redraws and keys work', async () => {
    project();
    const ui = open({ name: 'suspend', jobControl: true });
    await ui.waitFor(firstScreen, 'the first screen');
    const pid = await ui.pid();
    const before = ui.written().length;
    await ui.press('C-z');
    await ui.waitFor((s) => /Stopped/.test(s), 'the shell saying the job stopped');
    expect(processState(pid)).toBe('T');
    expect(ui.modes()).toEqual({ alternateScreen: false, cursorVisible: true, mouse: false, keypad: false });
    const given = ui.written().subarray(before).toString('latin1');
    for (const code of ['\u001b[?2004l', '\u001b[?1049l', '\u001b[?25h', '\u001b[?1000l', '\u001b[?1l']) expect(given).toContain(code);
    expect(given.indexOf('\u001b[?1049l')).toBeLessThan(given.indexOf('Stopped')); // given back before the stop
    const stopped = ui.written().length;
    await ui.press('f', 'g', 'Enter');
    await ui.waitFor((s) => firstScreen(s) && !/Stopped/.test(s), 'the UI drawn again');
    expect(processState(pid)).not.toBe('T');
    expect(ui.modes()).toMatchObject({ alternateScreen: true, cursorVisible: false, mouse: true });
    expect(ui.written().subarray(stopped).toString('latin1')).toContain('\u001b[?2004h');
    await ui.press('j', 'Enter');
    await ui.waitFor((s) => s.includes('200 OK'), 'the response: keys still work');
    await ui.press('q');
    expect(await ui.exit()).toBe('0 null');
    await expectRestored(ui);
    expect(ui.stderr()).toBe('');
  });

  test('with no shell to return to (the pane runs reqflow itself: an orphaned process group), the stop is discarded: the UI draws again and keeps working', async () => {
    project();
    const ui = open({ name: 'suspend-orphan' });
    await ui.waitFor(firstScreen, 'the first screen');
    await ui.press('C-z');
    await ui.waitFor(firstScreen, 'the UI drawn again');
    expect(ui.modes()).toMatchObject({ alternateScreen: true, mouse: true });
    await ui.press('j', 'Enter');
    await ui.waitFor((s) => s.includes('200 OK'), 'the response: keys still work');
    await ui.press('q');
    expect(await ui.exit()).toBe('0 null');
    await expectRestored(ui);
  });
});

describe('terminals the UI cannot use are refused before the screen opens', () => {
  const NOT_TERMINALS = /^reqflow: the terminal UI needs a terminal \(stdin and stdout are not both terminals\)\nhint: /;
  test.each([
    ['stdin closed', '<&-', [], NOT_TERMINALS],
    ['stdin from /dev/null', '</dev/null', ['tui'], NOT_TERMINALS],
    ['stdin from a pipe', 'echo x |', ['tui'], NOT_TERMINALS],
    ['stdout to a file', '>out.txt', [], NOT_TERMINALS],
    ['no controlling terminal (setsid)', 'setsid -w', [], /^reqflow: the terminal UI needs a controlling terminal \(started with setsid, or detached from its terminal\)\nhint: /],
    ['TERM=dumb', 'TERM=dumb', ['tui'], /^reqflow: the terminal UI cannot draw on TERM=dumb \(a terminal that cannot move the cursor\)\nhint: /],
  ])('%s: one line and a hint, exit 2, the terminal untouched', async (_name, shell, args, message) => {
    project();
    const ui = open({ name: `refused-${shell.replace(/\W/g, '') || 'redirect'}-${args.length}`, shell, args });
    expect(await ui.exit()).toBe('2 null');
    expect(ui.stderr()).toMatch(message);
    expect(ui.stderr().trim().split('\n')).toHaveLength(2);
    await expectRestored(ui);
  });
});

describe('what a project or a server brings is drawn as text, never as terminal codes', () => {
  test('an SGR code in a URL, a header, a request name and a file name is shown, not applied (\\x1b[8m would hide the host)', async () => {
    project();
    dir.write('evil\u001b[7m.http', `### safe\u001b[8mHIDDEN\nGET ${api.url}/users\u001b[8m.evil.test\nX-Note: a\u001b[5mb\n`);
    const ui = open({ name: 'sgr' });
    await ui.waitFor((s) => s.includes('evil␛[7m.http'), 'the file name with its escape shown');
    await ui.press('j');
    const screen = await ui.waitFor((s) => s.includes('.evil.test'), 'the request');
    expect(screen).toContain(`GET ${api.url}/users␛[8m.evil.test`);
    expect(screen).toContain('X-Note: a␛[5mb');
    expect(screen).toContain('safe␛[8mHIDDEN');
  });

  test('a file name with a C1 CSI, a bidi override and an SGR code: the checks list shows its place made visible, as the tree does', async () => {
    dir = tempDir('reqflow-hostile-term-');
    dir.write('c\u202e\u009b\u001b[7m.http', `### checked\nGET ${api.url}/users\n\n?? status == 599\n`);
    const shownFile = 'c<U+202E><U+009B>␛[7m.http';
    const ui = open({ name: 'checks-place' });
    await ui.waitFor((s) => s.includes(shownFile), 'the file name made visible in the tree');
    await ui.press('j', 'Enter');
    const screen = await ui.waitFor((s) => s.includes('checks: 1 of 1 failed'), 'the checks list');
    expect(screen).toContain(`✗ status == 599  ${shownFile}:4`);
    expect(screen).not.toMatch(/[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  test('a text body with C1 controls and bidi overrides: the pager shows them as U+FFFD, the terminal never gets them', async () => {
    project();
    const server = createServer((_request, response) => response.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end('before\u009b31mC1 \u202eRTL\u202c \u2066isolate\u2069 after\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      dir.write('users.http', `### body\nGET http://127.0.0.1:${(server.address() as AddressInfo).port}/\n`);
      const ui = open({ name: 'c1' });
      await ui.waitFor(firstScreen, 'the first screen');
      await ui.press('j', 'Enter');
      const screen = await ui.waitFor((s) => s.includes('after'), 'the body');
      expect(screen).toContain('before�31mC1 �RTL� �isolate� after');
      expect(screen).not.toMatch(/[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/);
    } finally {
      server.close();
    }
  });

  test('a request named in wide, joined and right-to-left characters: the status bar keeps "? help", tabs are spaces', async () => {
    project();
    const ui = open({ name: 'wide', columns: 80, rows: 24 });
    await ui.waitFor(firstScreen, 'the first screen');
    await ui.press('j', 'j', 'Enter');
    const screen = await ui.waitFor((s) => (s.trimEnd().split('\n').pop() ?? '').includes('200 OK'), 'the response in the status bar');
    const status = screen.trimEnd().split('\n').pop() ?? '';
    expect(status).toContain('שלום tab');
    expect(status.trimEnd().endsWith('? help')).toBe(true);
    // The history lists the send on one row: neo-blessed counts an emoji as 3 and used to wrap the row at its last space.
    await ui.press('H');
    const history = await ui.waitFor((s) => /\d\d:\d\d:\d\d\s+GET\s+200 .*שלום/.test(s), 'the send in the history');
    expect(history.split('\n').filter((line) => /^[│\s]*tab\b/.test(line))).toEqual([]);
  });
});

describe('tiny terminals and resize storms', () => {
  test('resizes to 1×1, 2×10, 10×2, 20×5, 300×5, 5×300 with a response, the palette and a prompt open: the UI lives and draws again', async () => {
    project();
    const ui = open({ name: 'sizes', columns: 80, rows: 24 });
    await ui.waitFor(firstScreen, 'the first screen');
    await ui.press('j', 'Enter');
    await ui.waitFor((s) => s.includes('200 OK'), 'the response');
    const sizes: Array<[number, number]> = [
      [1, 1],
      [2, 10],
      [10, 2],
      [20, 5],
      [300, 5],
      [5, 300],
    ];
    for (const open of ['', ':', 's']) {
      if (open !== '') await ui.press(open);
      for (let round = 0; round < 3; round++) for (const [columns, rows] of sizes) ui.resize(columns, rows);
      ui.resize(20, 5);
      // The panes give way to a notice; an open window fits itself in (and keeps the keys).
      await ui.waitFor((s) => (open === '' ? s.includes('terminal too small') : s.includes(open === ':' ? 'Commands' : 'Save')), `the small screen (${open || 'no window'})`);
      ui.resize(80, 24);
      if (open !== '') await ui.press('Escape');
      await ui.waitFor((s) => firstScreen(s) && s.includes('200 OK'), `the panes again (${open || 'no window'})`);
    }
    await ui.press('q');
    expect(await ui.exit()).toBe('0 null');
    await expectRestored(ui);
    expect(ui.stderr()).toBe('');
  });
});

// No terminal needed: this one runs without tmux too.
always('an exception that escapes the UI', () => {
  alwaysTest('thrown from a timer while the UI runs: the terminal restored (raw mode off, alternate screen left, bracketed paste off), one line and a hint, exit 70 — not the stack trace and exit 1 of neo-blessed', async () => {
    project();
    // A process of its own: the exception must reach Node's uncaughtException as it would in reqflow.
    const script = dir.write(
      'throws.mjs',
      `import { PassThrough, Writable } from 'node:stream';
import { runTui } from ${JSON.stringify(join(ROOT, 'dist', 'tui', 'index.js'))};
import { toRunOptions } from ${JSON.stringify(join(ROOT, 'dist', 'cli', 'run-options.js'))};
import { formatError } from ${JSON.stringify(join(ROOT, 'dist', 'cli', 'report-error.js'))};
const input = Object.assign(new PassThrough(), { isTTY: true, isRaw: false, setRawMode(mode) { this.isRaw = mode; return this; } });
let written = '';
const output = Object.assign(new Writable({ write(chunk, _encoding, callback) { written += chunk; callback(); } }), { isTTY: true, columns: 80, rows: 24 });
const env = { HOME: process.env.HOME, REQFLOW_STATE_DIR: process.env.REQFLOW_STATE_DIR };
const options = { dir: process.cwd(), cwd: process.cwd(), env, options: toRunOptions({ output: 'pretty', color: true }, { stdoutIsTTY: true, stdinIsTTY: true, env }) };
// Thrown once the UI is up (its alternate screen written), however long a busy machine takes to get there.
const waiting = setInterval(() => {
  if (!written.includes('\\u001b[?1049h')) return;
  clearInterval(waiting);
  setTimeout(() => { throw new Error('boom in a timer'); }, 50);
}, 20);
let result;
try {
  result = { code: await runTui(options, { input, output, terminal: 'xterm-256color' }) };
} catch (error) {
  result = formatError(error, { debug: false });
}
process.stdout.write(JSON.stringify({ ...result, raw: input.isRaw, wasRaw: written.includes('\\u001b[?1049h'), leftAlternate: written.lastIndexOf('\\u001b[?1049l') > written.lastIndexOf('\\u001b[?1049h'), pasteOff: written.lastIndexOf('\\u001b[?2004l') > written.lastIndexOf('\\u001b[?2004h') }));
`,
    );
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [script], { cwd: dir.dir, env: { PATH: process.env.PATH, HOME: dir.dir, REQFLOW_STATE_DIR: join(dir.dir, 'state') }, timeout: 20_000 }, (_error, out, err) => resolve({ stdout: out, stderr: err })),
    );
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toEqual({ text: 'reqflow: internal error: boom in a timer\nhint: this is a bug in reqflow; run with --debug for the stack trace and report it\n', exitCode: 70, raw: false, wasRaw: true, leftAlternate: true, pasteOff: true });
  });
});
