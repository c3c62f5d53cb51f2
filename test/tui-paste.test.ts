/**
 * Text that arrives at once in the terminal UI — a paste, 20,000 characters in one read —
 * headless (real neo-blessed screen on fake terminal streams) against a local server: it
 * reaches the focused field in one piece and is drawn once, not once per character.
 * test/tui-tmux.test.ts pastes into the built binary in a real terminal.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fieldText } from '../src/tui/line-editor.js';
import { tempDir } from './helpers/cli.js';
import { harnessPerTest, isolatedEnv, selectRequest, type Harness } from './helpers/tui-harness.js';

const USERS = { users: [{ id: 1, name: 'Ada Lovelace' }, { id: 2, name: 'Alan Turing' }] };
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

let server: Server;
let workspace: ReturnType<typeof tempDir>;
const startHarness = harnessPerTest();

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(USERS));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  workspace = tempDir('reqflow-tui-paste-');
  workspace.write('api.http', ['### list users', `GET http://127.0.0.1:${(server.address() as AddressInfo).port}/users`, '', '### other', `GET http://127.0.0.1:${(server.address() as AddressInfo).port}/other`, ''].join('\n'));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  workspace.cleanup();
});

const open = (): Promise<Harness> => startHarness({ dir: workspace.dir, env: isolatedEnv(workspace.dir) });

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

describe('a paste for a one-line field', () => {
  it('line breaks at its ends are dropped, inside it each line break and tab is a space, every other control character is left out', () => {
    expect(fieldText('\r\nfirst\r\nsecond\rthird\nfourth\r\n\r\n')).toBe('first second third fourth');
    expect(fieldText('a\tb\u001b[31mc\u0003d\u007fe\u0085f\u009bg')).toBe('a b[31mcdefg');
    expect(fieldText('\n'.repeat(100_000))).toBe(''); // a scan: a regex anchored at the end is quadratic in such a run
    expect(fieldText('😀 wide 中文')).toBe('😀 wide 中文');
  });
});

describe('pasting into the UI', () => {
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
});
