/**
 * The built `reqflow` in a real terminal (tmux, 100×30), as a user runs it: the variable
 * editor's writes reach `.profiles.json` (comments kept) and the request pane at once, the
 * OAuth form has the grant type, and pastes (tmux's paste-buffer, as a terminal pastes) are text
 * for the focused field — never keys — however long. Needs a build (`npm run build`) and tmux (test/helpers/tmux-session.ts):
 * without tmux the file is skipped with one line on stderr (test/helpers/system-programs.ts).
 */
import { afterAll, afterEach, beforeAll, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers/cli.js';
import { needs } from './helpers/system-programs.js';
import { alive, tmuxSession, type TmuxSession } from './helpers/tmux-session.js';
import { startDemoApi, type DemoApi } from './servers/demo-api.js';

const { describe, test } = needs(['tmux']);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let api: DemoApi;
let dir: ReturnType<typeof tempDir>;
let ui: TmuxSession | undefined;

beforeAll(async () => {
  api = await startDemoApi();
});
afterAll(async () => {
  await api.close();
});

afterEach(async () => {
  const pid = ui ? await Promise.race([ui.pid(), sleep(100).then(() => undefined)]) : undefined;
  ui?.kill();
  ui = undefined;
  // reqflow writes its files (code cache, state) as it exits: the folder goes after it has.
  for (let i = 0; pid !== undefined && alive(pid) && i < 100; i++) await sleep(50);
  dir?.cleanup();
});

function open(profiles: string): TmuxSession {
  dir = tempDir('reqflow-tmux-');
  dir.write('users.http', '### one user\nGET {{baseUrl}}/users/{{userId}}\n');
  dir.write('.profiles.json', profiles);
  ui = tmuxSession(dir.dir, { name: 'vars', columns: 100, rows: 30 });
  return ui;
}

/** A project whose one request answers JSON, for pasting into the UI's fields. */
function pasteProject(env: Record<string, string> = {}): TmuxSession {
  dir = tempDir('reqflow-tmux-paste-');
  dir.write('users.http', `### list users\nGET ${api.url}/users\n`);
  ui = tmuxSession(dir.dir, { name: 'paste', columns: 100, rows: 30, env });
  return ui;
}

describe('in a real terminal', () => {
  test('v: choosing an option and editing a value are written to the file and shown in the request at once', async () => {
    const { press, waitFor } = open(`// kept
[{ "name": "dev", "variables": {
  "baseUrl": { "options": ["http://127.0.0.1:1", "${api.url}"], "active": 0, "aliases": { "off": 0, "demo": 1 } },
  "userId": "1"
} }]
`);
    await waitFor((s) => s.includes('users.http') && s.includes('token:'), 'the first screen');
    await press('j');
    await waitFor((s) => s.includes('GET http://127.0.0.1:1/users/1'), 'the request with the first option');
    await press('v');
    await waitFor((s) => /baseUrl\s+profile\s+http:\/\/127\.0\.0\.1:1 ‹1\/2 off›/.test(s), 'the editor');
    await press('Right');
    await waitFor((s) => s.includes('‹2/2 demo›'), 'the second option active');
    await press('j', 'Enter');
    await waitFor((s) => s.includes('userId ='), 'the value prompt');
    await press('BSpace', '2', 'Enter');
    await waitFor((s) => s.includes('userId set'), 'the value saved');
    await press('Escape');
    await waitFor((s) => s.includes(`GET ${api.url}/users/2`), 'the request with the new values');
    const file = readFileSync(join(dir.dir, '.profiles.json'), 'utf8');
    expect(file).toContain('// kept');
    expect(file).toContain('"active": 1');
    expect(file).toContain('"userId": "2"');
    await press('Enter');
    await waitFor((s) => /200 OK/.test(s), 'the response');
  });

  test('J: a 20,000-character paste of 250 lines, q lines among them, is one line in the box — no line break is Enter, no q quits — and Ctrl-C quits at once after it', async () => {
    const ui = pasteProject();
    await ui.waitFor((s) => s.includes('users.http') && s.includes('token:'), 'the first screen');
    await ui.press('j', 'Enter');
    await ui.waitFor((s) => s.includes('200 OK'), 'the response');
    await ui.press('Tab', 'Tab', 'J');
    await ui.waitFor((s) => s.includes('JMESPath (people[0].name)'), 'the query line');
    const lines = Array.from({ length: 250 }, (_, i) => (i % 50 === 0 ? 'q' : 'q'.repeat(79)));
    const text = `length('${lines.join('\n')}\n${'q'.repeat(3_000)}')`;
    expect(text.length).toBeGreaterThanOrEqual(20_000);
    ui.paste(text);
    // Every character arrived once, each line break a space: the expression counts them (drawn by the UI, so it still runs).
    const expected = lines.join(' ').length + 1 + 3_000;
    const screen = await ui.waitFor((s) => s.includes(String(expected)), 'the length of the pasted text', 20_000);
    expect(screen.trimEnd().split('\n').pop()).toMatch(/^J q+'\)$/); // still open: no line break was Enter
    await ui.press('C-c');
    expect(await ui.exit(20_000)).toBe('0 null');
    await ui.waitFor((s) => s.includes('<stty'), 'the shell after reqflow');
    expect(await ui.bracketedPaste()).toBe(false); // given back as it was
  });

  test('a paste with no text field open is ignored: its line break sends nothing, its q does not quit', async () => {
    const ui = pasteProject();
    await ui.waitFor((s) => s.includes('users.http') && s.includes('token:'), 'the first screen');
    await ui.press('j');
    await ui.waitFor((s) => s.includes('Not sent yet'), 'the request selected');
    ui.paste('\nq\n');
    const screen = await ui.waitFor((s) => s.includes('paste ignored: no text field is open'), 'the paste ignored');
    expect(screen).toContain('Not sent yet');
    await ui.press('q');
    expect(await ui.exit(20_000)).toBe('0 null');
  });

  test('a terminal without bracketed paste: 20,000 characters typed in one go reach the filter whole, Ctrl-C quits at once after them', async () => {
    const ui = pasteProject();
    await ui.waitFor((s) => s.includes('users.http') && s.includes('token:'), 'the first screen');
    await ui.press('/');
    ui.paste(`${'x'.repeat(19_990)}tail-of-it`, { bracketed: false });
    await ui.waitFor((s) => /\/x+tail-of-it/.test(s), 'the end of the text in the filter', 20_000);
    await ui.press('C-c');
    expect(await ui.exit(20_000)).toBe('0 null');
  });

  test('after the editor (E) gives the terminal back, a paste is a paste again', async () => {
    const ui = pasteProject({ EDITOR: 'true', VISUAL: 'true' });
    await ui.waitFor((s) => s.includes('users.http') && s.includes('token:'), 'the first screen');
    await ui.press('j', 'E');
    await ui.waitFor((s) => s.includes('request files reloaded'), 'the editor come and gone');
    await ui.press('/');
    ui.paste('list\nusers');
    await ui.waitFor((s) => s.includes('/list users'), 'the paste as one line in the filter');
    await ui.press('Enter', 'q');
    expect(await ui.exit(20_000)).toBe('0 null');
  });

  test('O: the OAuth form has the grant type', async () => {
    const { press, waitFor } = open('[{ "name": "dev", "variables": { "baseUrl": "http://127.0.0.1:1", "userId": "1" } }]\n');
    await waitFor((s) => s.includes('users.http') && s.includes('token:'), 'the first screen');
    await press('O');
    await waitFor((s) => s.includes('Grant type') && s.includes('‹ authorization_code ›'), 'the grant field');
    await press('Escape');
  });
});
