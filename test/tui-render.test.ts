/**
 * Drawing right (issue 25): what reaches the terminal, read back through a terminal emulator
 * (xterm.js headless, Unicode 11 widths). After a sequence of states, the terminal must show
 * exactly what a fresh full redraw of the same state shows: no stale cells after wide
 * characters and emoji.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { tempDir } from './helpers/cli.js';
import { emulator } from './helpers/terminal-emulator.js';
import { harnessPerTest, isolatedEnv, type Harness, selectRequest, sendRequest } from './helpers/tui-harness.js';
import { startGateServer, type GateServer } from './servers/gate-server.js';

let api: GateServer;
let workspace: ReturnType<typeof tempDir>;
const startHarness = harnessPerTest();

beforeAll(async () => {
  api = await startGateServer();
  workspace = tempDir('reqflow-tui-render-');
  workspace.write('api.http', ['### emoji', 'GET {{baseUrl}}/emoji', '', '### refused', 'GET http://127.0.0.1:1/nothing', '', '### long', 'GET {{baseUrl}}/long', ''].join('\n'));
});

afterAll(async () => {
  await api.close();
  workspace.cleanup();
});


/** The terminal as the UI left it, and as a fresh full redraw of the same state draws it. */
async function terminalAndFresh(h: Harness): Promise<{ terminal: string[]; fresh: string[] }> {
  const { columns, rows } = h.output;
  const live = emulator(columns, rows);
  await live.write(h.output.written);
  const screen = h.tui.screen as unknown as { alloc(): void; render(): void };
  h.output.written = '';
  screen.alloc(); // forget what the terminal shows: the next render draws every cell
  screen.render();
  await new Promise((resolve) => setImmediate(resolve)); // the program flushes its buffer on the next tick
  const fresh = emulator(columns, rows);
  await fresh.write(h.output.written);
  const result = { terminal: live.rows(), fresh: fresh.rows() };
  live.dispose();
  fresh.dispose();
  return result;
}

function open(extra: NodeJS.ProcessEnv = {}, size: { columns?: number; rows?: number; terminal?: string } = {}): Promise<Harness> {
  return startHarness({ dir: workspace.dir, env: { ...isolatedEnv(workspace.dir), ...extra }, variables: [`baseUrl=${api.url}`], ...size });
}

/** The terminal as a user sees it after everything the UI wrote. */
async function seen(h: Harness): Promise<ReturnType<typeof emulator>> {
  await new Promise((resolve) => setImmediate(resolve));
  const term = emulator(h.output.columns, h.output.rows);
  await term.write(h.output.written);
  return term;
}

/** SGR mouse reports (1-based cells), as xterm sends them. */
const click = (x: number, y: number): string => `\u001b[<0;${x + 1};${y + 1}M\u001b[<0;${x + 1};${y + 1}m`;
const wheel = (down: boolean, x: number, y: number): string => `\u001b[<${down ? 65 : 64};${x + 1};${y + 1}M`;

describe('no stale cells', () => {
  it('an emoji body is laid out as the terminal draws it: every border in its column', async () => {
    const h = await open();
    await selectRequest(h, 'emoji');
    await h.press('enter');
    await h.waitFor('done');
    const { terminal, fresh } = await terminalAndFresh(h);
    expect(terminal).toEqual(fresh);
    const emojiRow = terminal.find((row) => row.includes('😀'));
    expect(emojiRow).toBeDefined();
    // The pane's right border is the last column: wide characters took two columns each.
    const term = await seen(h);
    const y = term.rows().findIndex((row) => row.includes('😀'));
    expect(term.cell(79, y).ch).toBe('│');
    term.dispose();
  });

  it('after an emoji body, then an error, the terminal equals a fresh redraw', async () => {
    const h = await open();
    await sendRequest(h, 'emoji', 'done');
    await sendRequest(h, 'refused', 'exits with 4');
    const { terminal, fresh } = await terminalAndFresh(h);
    expect(terminal.join('\n')).toContain('refused');
    expect(terminal).toEqual(fresh);
  });
});

describe('colours and focus', () => {
  it('draws hints grey, unfocused borders in the default colour and the focused one cyan with its title reversed', async () => {
    const h = await open();
    await h.waitFor('Select a request');
    const term = await seen(h);
    const rows = term.rows();
    const hintY = rows.findIndex((row) => row.includes('Select a request'));
    const hintX = [...(rows[hintY] ?? '')].findIndex((_ch, i, all) => all.slice(i, i + 6).join('') === 'Select');
    expect(term.cell(hintX, hintY).fg).toBe(8); // grey
    // The tree has the focus: cyan border, reversed title; the request pane's border is the terminal's colour.
    expect(term.cell(0, 0)).toMatchObject({ ch: '┌', fg: 6 });
    expect(term.cell(3, 0)).toMatchObject({ ch: 'R', inverse: true });
    const requestLeft = rows[0]?.indexOf('┐┌') ?? -1;
    expect(term.cell(requestLeft + 1, 0).ch).toBe('┌');
    expect(term.cell(requestLeft + 1, 0).fg).toBeUndefined();
    expect(term.cell(requestLeft + 4, 0).inverse).toBe(false);
    term.dispose();
  });

  it.each([
    ['NO_COLOR', { NO_COLOR: '1' }, undefined],
    ['a terminal without colours (xterm-mono)', {}, 'xterm-mono'],
    ['a terminal without colours (vt100)', {}, 'vt100'],
  ])('%s: no colour at all, and the focus stays visible', async (_, extra: NodeJS.ProcessEnv, terminal: string | undefined) => {
    const h = await open(extra, terminal === undefined ? {} : { terminal });
    await selectRequest(h, 'emoji');
    await h.press('enter');
    await h.waitFor('done');
    await h.press('tab', 'tab');
    const term = await seen(h);
    const coloured = term.rows().flatMap((row, y) => [...row].flatMap((ch, x) => (term.cell(x, y).fg !== undefined || term.cell(x, y).bg !== undefined ? [`${x},${y}:${ch}`] : [])));
    expect(coloured).toEqual([]);
    expect(term.colourless()).toBe(true);
    const rows = term.rows();
    const y = rows.findIndex((row) => row.includes('200 OK'));
    const x = [...(rows[y] ?? '')].findIndex((_ch, i, all) => all.slice(i, i + 3).join('') === '200');
    expect(term.cell(x, y).inverse).toBe(true); // the focused response pane's title
    term.dispose();
  });
});

describe('small terminals and the mouse', () => {
  it('says the terminal is too small below 80×24 instead of drawing squeezed panes, and draws them again when it grows', async () => {
    const h = await open();
    await h.resize(40, 10);
    const screen = await h.waitFor('terminal too small (need 80×24)');
    expect(screen).not.toContain('Requests');
    expect(screen).toContain('now 40×10');
    await h.resize(80, 24);
    await h.waitFor((s) => s.includes('Requests') && !s.includes('too small'));
  });

  it('selects a request with a click and scrolls a pane with the wheel', async () => {
    const h = await open();
    const rows = h.text().split('\n');
    const refusedY = rows.findIndex((row) => /GET\s+refused/.test(row));
    h.input.write(click(5, refusedY));
    await h.waitFor('Request · refused');
    const emojiY = rows.findIndex((row) => /GET\s+emoji/.test(row));
    h.input.write(click(5, emojiY));
    await h.waitFor('Request · emoji');
    await selectRequest(h, 'long');
    await h.press('enter');
    await h.waitFor('line 1"');
    const top = (): string => h.text().split('\n')[10] ?? '';
    const before = top();
    h.input.write(wheel(true, 50, 15));
    await h.waitFor(() => top() !== before);
    h.input.write(wheel(false, 50, 15));
    await h.waitFor(() => top() === before);
    // The wheel over the tree moves the selection.
    h.input.write(wheel(false, 5, 5));
    await h.waitFor('Request · refused');
  });
});
