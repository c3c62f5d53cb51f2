#!/usr/bin/env node
// `npm run test:tui`: the real binary in a real terminal. Starts the demo API, opens `reqflow`
// in tmux at 80×24 (NCURSES_NO_UTF8_ACS=1 so borders print as box characters), sends keys,
// and checks the captured screen after each step. Needs `tmux` and a build (`npm run build`).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoApi } from '../servers/demo-api.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SOCKET = `reqflow-smoke-${process.pid}`;
const SESSION = 'reqflow';

if (spawnSync('tmux', ['-V']).status !== 0) {
  console.error('test:tui needs tmux (apt-get install tmux)');
  process.exit(2);
}

// -u: UTF-8 whatever the locale of CI says, so the borders and bullets survive capture-pane.
const tmux = (...args) => execFileSync('tmux', ['-u', '-L', SOCKET, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', SESSION);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Keys one at a time, with a pause: a lone Escape followed at once by a key reads as Alt+key. */
async function press(...keys) {
  for (const key of keys) {
    tmux('send-keys', '-t', SESSION, key);
    await sleep(120);
  }
}

let step = 0;
async function expectScreen(what, test, timeoutMs = 8000) {
  step += 1;
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    last = screen();
    if (test(last)) {
      console.log(`ok ${step} - ${what}`);
      return last;
    }
    await sleep(100);
  }
  throw new Error(`not ok ${step} - ${what}\n--- screen ---\n${last}\n--------------`);
}

const api = await startDemoApi();
const dir = mkdtempSync(join(tmpdir(), 'reqflow-smoke-'));
let failed = false;
try {
  writeFileSync(
    join(dir, 'users.http'),
    ['### list users', 'GET {{baseUrl}}/users', 'Accept: application/json', '', '### login', 'POST {{baseUrl}}/login', 'Content-Type: application/json', '', '{"username": "alice", "password": "{{password}}"}', ''].join('\n'),
  );
  writeFileSync(
    join(dir, '.profiles.json'),
    `${JSON.stringify([{ name: 'dev', variables: { baseUrl: api.url, password: { value: '', interactive: true } } }, { name: 'prod', variables: { baseUrl: 'https://api.example.invalid' } }], null, 2)}\n`,
  );
  // Last in the tree (zz-): a wide-character body, then an error over it.
  writeFileSync(join(dir, 'zz-emoji.http'), ['### emoji', 'POST {{baseUrl}}/echo', 'Content-Type: text/plain', '', '😀🚀✅ wide 中文 👍🏽 🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉', '', '### refused', 'GET http://127.0.0.1:1/nothing', ''].join('\n'));
  const command = `cd '${dir}' && node '${join(ROOT, 'bin', 'run.cjs')}'; echo "EXIT=$?"; sleep 60`;
  tmux(
    'new-session', '-d', '-s', SESSION, '-x', '80', '-y', '24',
    '-e', 'NCURSES_NO_UTF8_ACS=1', '-e', 'LANG=C.UTF-8', '-e', `REQFLOW_STATE_DIR=${join(dir, 'state')}`,
    command,
  );

  await expectScreen('bare `reqflow` opens the UI at 80×24 with box borders', (s) => s.includes('┌─ Requests') && s.includes('users.http') && /GET\s+list users/.test(s));
  let shot = screen();
  const lines = shot.replace(/\n$/, '').split('\n');
  if (lines.length !== 24 || lines.some((line) => [...line].length > 80)) throw new Error(`the screen is not 80×24:\n${shot}`);
  await expectScreen('the status bar shows the profile and the token state', (s) => /dev │ token: none/.test(s));

  await press('j');
  await expectScreen('j selects a request and the request pane shows it substituted', (s) => s.includes(`GET ${api.url}/users`));
  await press('Enter');
  await expectScreen('Enter sends it: status, time, size and the pretty body', (s) => /200 OK · \d+ ms · \d+ B/.test(s) && s.includes('Ada Lovelace'));

  await press('j', 'Enter');
  await expectScreen('an interactive variable is asked in a modal', (s) => s.includes('Value of password'));
  await press('s', 'e', 'c', 'r', 'e', 't');
  shot = await expectScreen('the secret input shows bullets, never the text', (s) => s.includes('••••••') && !s.includes('secret'));
  await press('Enter');
  await expectScreen('the login token is extracted into the session', (s) => s.includes('token stored in the session') && s.includes('token: set'));

  await press('k');
  await expectScreen("each request shows its own response: back on list users, its body, not login's", (s) => s.includes('Ada Lovelace') && s.includes('Request · list users'));

  await press('?');
  await expectScreen('? lists the keys', (s) => s.includes('Keys') && /↓ {2}j\s+move down/.test(s));
  await press('Escape');
  await expectScreen('Esc closes the help', (s) => !s.includes('move down'));

  await press(':');
  await expectScreen('the command palette lists the actions with their keys', (s) => s.includes('Commands') && /p\s+pick the profile/.test(s));
  await press('h', 'e', 'a', 'd', 'e', 'r', 's', 'Enter');
  await expectScreen('typing filters it and Enter runs the action', (s) => s.includes('response headers shown'));
  await press('h');

  await press('G', 'k', 'Enter');
  await expectScreen('an emoji body is drawn', (s) => s.includes('🎉') && s.includes('200 OK'));
  await press('j', 'Enter');
  const before = await expectScreen('then an error over it', (s) => s.includes('exits with 4'));
  // A full redraw of the same state (a resize there and back) must change nothing: no stale cells.
  tmux('resize-window', '-t', SESSION, '-x', '81', '-y', '24');
  await expectScreen('(resized)', (s) => [...(s.split('\n')[0] ?? '')].length === 81);
  tmux('resize-window', '-t', SESSION, '-x', '80', '-y', '24');
  await expectScreen('the terminal after the sequence equals a fresh redraw of it', (s) => [...(s.split('\n')[0] ?? '')].length === 80 && s === before);

  await press('p');
  await expectScreen('p opens the profile picker', (s) => s.includes('Profile') && s.includes('prod'));
  await press('j', 'Enter');
  await expectScreen('picking prod re-substitutes the request', (s) => / prod │ token: none/.test(s));

  tmux('resize-window', '-t', SESSION, '-x', '100', '-y', '30');
  await expectScreen('the UI redraws on resize', (s) => {
    const rows = s.replace(/\n$/, '').split('\n');
    return rows.length === 30 && [...(rows[0] ?? '')].length === 100 && rows[0].endsWith('┐');
  });
  tmux('resize-window', '-t', SESSION, '-x', '40', '-y', '10');
  await expectScreen('below 80×24 it says the terminal is too small', (s) => s.includes('terminal too small (need 80×24)') && !s.includes('Requests'));
  tmux('resize-window', '-t', SESSION, '-x', '80', '-y', '24');
  await expectScreen('and back to 80×24', (s) => [...(s.split('\n')[0] ?? '')].length === 80 && s.includes('Requests'));

  await press('q');
  await expectScreen('q quits with exit 0 and restores the terminal', (s) => s.includes('EXIT=0') && !s.includes('Requests'));
  console.log(`1..${step}`);
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
} finally {
  spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
  await api.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
