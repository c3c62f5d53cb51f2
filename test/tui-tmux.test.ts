/**
 * The built `reqflow` in a real terminal (tmux, 100×30), as a user runs it: the variable
 * editor's writes reach `.profiles.json` (comments kept) and the request pane at once, and the
 * OAuth form has the grant type. Needs a build (`npm run build`) and tmux: without tmux the file
 * is skipped with one line on stderr (test/helpers/system-programs.ts).
 */
import { afterAll, afterEach, beforeAll, expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from './helpers/cli.js';
import { needs } from './helpers/system-programs.js';
import { startDemoApi, type DemoApi } from './servers/demo-api.js';

const { describe, test } = needs(['tmux']);
const SOCKET = `reqflow-jest-${process.pid}`;
const SESSION = 'vars';
const tmux = (...args: string[]): string => execFileSync('tmux', ['-u', '-L', SOCKET, ...args], { encoding: 'utf8' });
const screen = (): string => tmux('capture-pane', '-p', '-t', SESSION);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Keys one at a time: a lone Escape followed at once by a key would read as Alt+key. */
async function press(...keys: string[]): Promise<void> {
  for (const key of keys) {
    tmux('send-keys', '-t', SESSION, key);
    await sleep(150);
  }
}

async function waitFor(test: (screen: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    last = screen();
    if (test(last)) return last;
    await sleep(100);
  }
  throw new Error(`${what}: never on screen\n--- screen ---\n${last}`);
}

let api: DemoApi;
let dir: ReturnType<typeof tempDir>;

beforeAll(async () => {
  api = await startDemoApi();
});
afterAll(async () => {
  await api.close();
});
/** Is the process still there? */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterEach(async () => {
  let pid: number | undefined;
  try {
    pid = Number(tmux('display-message', '-p', '-t', SESSION, '#{pane_pid}').trim());
    tmux('kill-server');
  } catch {
    // no server left
  }
  // reqflow writes its files (code cache, state) as it exits: the folder goes after it has.
  for (let i = 0; pid !== undefined && alive(pid) && i < 100; i++) await sleep(50);
  dir?.cleanup();
});

function open(profiles: string): void {
  dir = tempDir('reqflow-tmux-');
  dir.write('users.http', '### one user\nGET {{baseUrl}}/users/{{userId}}\n');
  dir.write('.profiles.json', profiles);
  const command = `cd '${dir.dir}' && exec node '${join(ROOT, 'bin', 'run.cjs')}'`;
  tmux('new-session', '-d', '-s', SESSION, '-x', '100', '-y', '30', '-e', 'NCURSES_NO_UTF8_ACS=1', '-e', 'LANG=C.UTF-8', '-e', `HOME=${dir.dir}`, '-e', `REQFLOW_STATE_DIR=${join(dir.dir, 'state')}`, command);
}

describe('in a real terminal', () => {
  test('v: choosing an option and editing a value are written to the file and shown in the request at once', async () => {
    open(`// kept
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

  test('O: the OAuth form has the grant type', async () => {
    open('[{ "name": "dev", "variables": { "baseUrl": "http://127.0.0.1:1", "userId": "1" } }]\n');
    await waitFor((s) => s.includes('users.http') && s.includes('token:'), 'the first screen');
    await press('O');
    await waitFor((s) => s.includes('Grant type') && s.includes('‹ authorization_code ›'), 'the grant field');
    await press('Escape');
  });
});
