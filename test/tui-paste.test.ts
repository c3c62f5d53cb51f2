/**
 * Pasting into the terminal UI, headless (real neo-blessed screen on fake terminal streams,
 * the bytes a terminal sends written to its input) against a local server: bracketed paste is
 * turned on and off, a paste is text for the focused field — one line, drawn once however long,
 * never keys (a line break is no Enter, a `q` no quit) — and is ignored with no field open;
 * markers cut by the reads are put together, a paste whose end never comes ends after a
 * silence. test/tui-tmux.test.ts pastes into the built binary in a real terminal.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fieldText } from '../src/tui/line-editor.js';
import { MAX_PASTE_CHARS, PASTE_END, PASTE_START, PasteParser, type InputPiece } from '../src/tui/paste-parser.js';
import { BRACKETED_PASTE } from '../src/tui/terminal-input.js';
import { tempDir } from './helpers/cli.js';
import { harnessPerTest, isolatedEnv, selectRequest, type Harness } from './helpers/tui-harness.js';

const USERS = { users: [{ id: 1, name: 'Ada Lovelace' }, { id: 2, name: 'Alan Turing' }] };
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

let server: Server;
let sent = 0;
let workspace: ReturnType<typeof tempDir>;
const startHarness = harnessPerTest();

beforeAll(async () => {
  server = createServer((_req, res) => {
    sent += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(USERS));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  workspace = tempDir('reqflow-tui-paste-');
  workspace.write('api.http', ['### list users', `GET http://127.0.0.1:${(server.address() as AddressInfo).port}/users`, '', '### other', `GET http://127.0.0.1:${(server.address() as AddressInfo).port}/other`, ''].join('\n'));
  workspace.write('.profiles.json', '[{ "name": "dev", "variables": { "note": "x" } }]\n');
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  workspace.cleanup();
});

const open = (): Promise<Harness> => startHarness({ dir: workspace.dir, env: isolatedEnv(workspace.dir) });

/** What a terminal in bracketed paste mode sends for a paste of `text` (tmux and xterm send each line break as CR). */
const bracketed = (text: string): string => `${PASTE_START}${text.replace(/\n/g, '\r')}${PASTE_END}`;

/** Counts the screen's draws from now on. */
function countDraws(h: Harness): () => number {
  const screen = h.tui.screen;
  const draw = screen.render.bind(screen);
  let draws = 0;
  screen.render = () => {
    draws += 1;
    draw();
  };
  return () => draws;
}

/** `length('qqq…')` of `lines` lines of 79 `q`s, with the number it evaluates to once each line break is a space. */
function lengthQuery(lines: number): { text: string; length: number } {
  const text = `length('${Array.from({ length: lines }, () => 'q'.repeat(79)).join('\n')}')`;
  return { text, length: lines * 79 + (lines - 1) };
}

/** The response pane's rows (below the request pane), without the border. */
const body = (screen: string): string => screen.split('\n').slice(9, -1).join('\n');

async function withResponse(): Promise<Harness> {
  const h = await open();
  await selectRequest(h, 'list users');
  await h.press('enter');
  await h.waitFor((s) => s.includes('200 OK') && s.includes('Alan Turing'));
  await h.press('tab', 'tab'); // the response pane
  return h;
}

describe('the paste parser', () => {
  const pieces = (chunks: string[]): InputPiece[] => {
    const parser = new PasteParser();
    return chunks.flatMap((chunk) => parser.push(chunk));
  };
  const joined = (list: InputPiece[]): Array<string | { paste: string }> =>
    list.reduce<Array<string | { paste: string }>>((out, piece) => {
      const last = out[out.length - 1];
      if (piece.kind === 'paste') out.push({ paste: piece.paste.text });
      else if (typeof last === 'string') out[out.length - 1] = last + piece.text;
      else out.push(piece.text);
      return out;
    }, []);

  it('a paste between the markers is one piece, keys around it stay keys, however the reads cut the input', () => {
    const input = `j${PASTE_START}a\rq\u001b[A\u0003b${PASTE_END}k\u001b[2~`;
    const whole = [{ kind: 'keys', text: 'j' }, { kind: 'paste', paste: { text: 'a\rq\u001b[A\u0003b', dropped: 0, unfinished: false } }, { kind: 'keys', text: 'k\u001b[2~' }];
    expect(pieces([input])).toEqual(whole);
    for (let cut = 1; cut < input.length; cut++) {
      // Cut after ESC or `ESC [` of the start marker: those went on as a key (Escape, Alt-[: nothing waits for them), the paste is still one.
      const keys = cut === 2 ? 'j\u001b' : cut === 3 ? 'j\u001b[' : 'j';
      expect(joined(pieces([input.slice(0, cut), input.slice(cut)]))).toEqual([keys, { paste: 'a\rq\u001b[A\u0003b' }, 'k\u001b[2~']);
    }
    const afterStart = input.indexOf('a');
    expect(joined(pieces([input.slice(0, afterStart), ...input.slice(afterStart)]))).toEqual(['j', { paste: 'a\rq\u001b[A\u0003b' }, 'k\u001b[2~']); // then one byte per read
  });

  it('a lone Escape and Alt-[ at the end of a read are keys at once; only a marker’s digits wait for the rest', () => {
    expect(pieces(['\u001b'])).toEqual([{ kind: 'keys', text: '\u001b' }]);
    expect(pieces(['\u001b['])).toEqual([{ kind: 'keys', text: '\u001b[' }]);
    const parser = new PasteParser();
    expect(parser.push('x\u001b[20')).toEqual([{ kind: 'keys', text: 'x' }]);
    expect(parser.push('~')).toEqual([{ kind: 'keys', text: '\u001b[20~' }]); // F9, not a paste
  });

  it('holds at most MAX_PASTE_CHARS of a paste, counts the rest, and ends a paste whose end never comes', () => {
    const parser = new PasteParser();
    expect(parser.push(PASTE_START + 'a'.repeat(MAX_PASTE_CHARS))).toEqual([]);
    expect(parser.pasting).toBe(true);
    const [piece] = parser.push(`bbb${PASTE_END}`);
    expect(piece?.kind === 'paste' && { length: piece.paste.text.length, dropped: piece.paste.dropped, last: piece.paste.text.slice(-1) }).toEqual({ length: MAX_PASTE_CHARS, dropped: 3, last: 'a' });
    expect(parser.push(`${PASTE_START}cut\u001b[20`)).toEqual([]);
    expect(parser.end()).toEqual({ text: 'cut\u001b[20', dropped: 0, unfinished: true });
    expect(parser.pasting).toBe(false);
    expect(parser.push('j')).toEqual([{ kind: 'keys', text: 'j' }]);
  });
});

describe('a paste for a one-line field', () => {
  it('line breaks at its ends are dropped, inside it each line break and tab is a space, every other control character is left out', () => {
    expect(fieldText('\r\nfirst\r\nsecond\rthird\nfourth\r\n\r\n')).toBe('first second third fourth');
    expect(fieldText('a\tb\u001b[31mc\u0003d\u007fe\u0085f\u009bg')).toBe('a b[31mcdefg');
    expect(fieldText('\n'.repeat(100_000))).toBe(''); // a scan: a regex anchored at the end is quadratic in such a run
    expect(fieldText('😀 wide 中文')).toBe('😀 wide 中文');
  });
});

describe('pasting into the UI', () => {
  it('turns bracketed paste on when it starts and off when it ends', async () => {
    const h = await open();
    expect(h.output.written).toContain(BRACKETED_PASTE.on);
    await h.close();
    expect(h.output.written.slice(h.output.written.lastIndexOf(BRACKETED_PASTE.on))).toContain(BRACKETED_PASTE.off);
  });

  it('J: a 20,000-character paste of 250 lines is one line, drawn a few times, not once per character; no line break is Enter, no q quits', async () => {
    const h = await withResponse();
    await h.press('J');
    await h.waitFor(() => /JMESPath/.test(h.status()));
    const query = lengthQuery(250);
    expect(query.text.length).toBeGreaterThanOrEqual(20_000);
    const draws = countDraws(h);
    h.input.write(bracketed(query.text));
    await tick();
    expect(draws()).toBeLessThanOrEqual(3);
    // Every character arrived, once, each line break a space: the expression counts them all.
    await h.waitFor((s) => body(s).includes(String(query.length)));
    expect(h.status()).toMatch(/^J q+'\) *$/); // the line is still open: no line break was Enter
    await h.press('enter');
    await h.waitFor((s) => s.includes("· J length('qqq"));
  });

  it('J: 20,000 characters read at once from a terminal without bracketed paste reach the field in one piece, drawn once', async () => {
    const h = await withResponse();
    await h.press('J');
    await h.waitFor(() => /JMESPath/.test(h.status()));
    const text = `length('${'q'.repeat(19_990)}')`;
    const draws = countDraws(h);
    h.input.write(text);
    await tick();
    expect(draws()).toBeLessThanOrEqual(3);
    await h.waitFor((s) => body(s).includes('19990'));
  });

  it('with no text field open a paste is ignored: its line breaks send nothing, its q does not quit, its j does not move', async () => {
    const h = await open();
    await selectRequest(h, 'list users');
    const before = sent;
    h.input.write(bracketed('q\nj\n\njjG\n'));
    await h.waitFor(() => h.status().includes('paste ignored: no text field is open'));
    const screen = h.text();
    expect(screen).toContain('Request · list users');
    expect(screen).toContain('Not sent yet');
    expect(sent).toBe(before);
    await h.press('j'); // keys still work
    await h.waitFor('Request · other');
  });

  it('the request filter (/): a multi-line paste is one line, its control characters are text for nobody (Ctrl-C does not quit, Esc does not close)', async () => {
    const h = await open();
    await h.press('/');
    h.input.write(bracketed('list\n\u001busers\u0003\t'));
    await h.waitFor(() => h.status().includes('/list users '));
    expect(h.text()).toContain('list users');
    expect(h.text()).not.toMatch(/GET\s+other/);
    await h.press('backspace', 'enter');
    await h.waitFor(() => !h.status().includes('/list users'));
  });

  it('markers cut across reads: the paste is put together; a paste whose end never comes ends after a silence and the keys work again', async () => {
    const h = await open();
    await h.press('/');
    for (const part of ['\u001b[20', '0~li', 'st\rus', 'ers\u001b[2', '01~']) {
      h.input.write(part);
      await tick();
    }
    await h.waitFor(() => h.status().includes('/list users'));
    await h.press('escape');
    await h.waitFor(() => !h.status().includes('/list'));
    await h.press('/');
    h.input.write(`${PASTE_START}oth`); // no end: nothing is inserted until the paste is over
    await tick();
    expect(h.status()).not.toContain('/oth');
    await h.waitFor(() => h.status().includes('/oth'), 10_000);
    await h.press('e', 'r');
    await h.waitFor(() => h.status().includes('/other'));
    await h.press('enter');
  });

  it('the command palette: a pasted line break does not run the action', async () => {
    const h = await open();
    await h.press(':');
    await h.waitFor('Commands');
    h.input.write(bracketed('quit\n'));
    await h.waitFor((s) => s.includes(': quit') && s.includes('quit (Ctrl-C always quits)'));
    expect(h.text()).toContain('Commands'); // still open: nothing ran
    await h.press('escape');
    await h.waitFor((s) => !s.includes('Commands'));
  });

  it('the variable editor (v): a multi-line paste into a value is saved as one line', async () => {
    const h = await open();
    await h.press('v');
    await h.waitFor((s) => /note\s+profile\s+x/.test(s));
    await h.press('enter');
    await h.waitFor('note =');
    h.input.write(bracketed('\nfirst\nsecond\n'));
    await h.waitFor('› xfirst second');
    await h.press('enter');
    await h.waitFor(() => h.status().includes('note set'));
    expect(JSON.parse(readFileSync(join(workspace.dir, '.profiles.json'), 'utf8'))).toEqual([{ name: 'dev', variables: { note: 'xfirst second' } }]);
  });
});
