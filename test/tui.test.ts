/**
 * The terminal UI, headless: the real neo-blessed screen on fake terminal streams, real
 * request files, the real demo API. Keys go in as escape sequences; the screen is read back.
 */
import { sessionFileFor } from './helpers/session-file.js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { startDemoApi, type DemoApi } from './servers/demo-api.js';
import { tempDir } from './helpers/cli.js';
import { harnessPerTest, isolatedEnv, type Harness, selectRequest } from './helpers/tui-harness.js';
import { needs } from './helpers/system-programs.js';

let api: DemoApi;
let workspace: ReturnType<typeof tempDir>;
const startHarness = harnessPerTest();

const env = (): NodeJS.ProcessEnv => isolatedEnv(workspace.dir);

beforeAll(async () => {
  api = await startDemoApi();
  workspace = tempDir('reqflow-tui-');
  workspace.write(
    'users.http',
    [
      '### list users',
      'GET {{baseUrl}}/users',
      'Accept: application/json',
      'X-Api-Key: {{apiKey}}',
      '',
      '### login',
      'POST {{baseUrl}}/login',
      'Content-Type: application/json',
      '',
      '{"username": "alice", "password": "{{password}}"}',
      '',
      '### me',
      'GET {{baseUrl}}/me',
      'Authorization: Bearer {{token}}',
      '',
      '### ghost',
      'GET {{baseUrl}}/users/{{userId}}',
      '',
    ].join('\n'),
  );
  workspace.write('more/status.http', ['### not found', 'GET {{baseUrl}}/status/404', '', '### slow', 'GET {{baseUrl}}/slow?ms=2000', '', '### refused', 'GET http://127.0.0.1:1/nothing', ''].join('\n'));
  workspace.write('more/stream.http', ['### ticks', '# @streaming true', 'GET {{baseUrl}}/events?count=200&interval=40', ''].join('\n'));
  workspace.write(
    'zz-chain.http',
    ['### chained login', '# @name chainLogin', 'POST {{baseUrl}}/login', 'Content-Type: application/json', '', '{"username": "carol", "password": "secret"}', '', '### my notes', 'GET {{baseUrl}}/notes', 'Authorization: Bearer {{chainLogin.response.body.$.token}}', '', '?? status == 200', ''].join('\n'),
  );
  workspace.write('broken.http', 'this is not a request line\n');
  // An environment file of the JetBrains client: not a request file; --env qa (REQFLOW_ENV) uses it.
  workspace.write('http-client.env.json', JSON.stringify({ qa: { userId: '2' } }));
  workspace.write('package.json', '{"name": "not-requests"}\n');
  workspace.write(
    '.profiles.json',
    JSON.stringify(
      [
        { name: 'dev', variables: { baseUrl: api.url, apiKey: 'k-123456789', password: { value: '', interactive: true } } },
        { name: 'prod', variables: { baseUrl: 'https://api.example.invalid', apiKey: 'prod-key-123' } },
      ],
      null,
      2,
    ),
  );
});

afterAll(async () => {
  await api.close();
  workspace.cleanup();
});

function open(options: { variables?: string[]; profile?: string } = {}): Promise<Harness> {
  return startHarness({ dir: workspace.dir, env: env(), ...options });
}

/** Moves the tree selection to the request row named `name`. */

/** Selects the request named `name` and sends it with Enter. */
async function send(h: Harness, name: string): Promise<void> {
  await selectRequest(h, name);
  await h.press('enter');
}

describe('layout and navigation', () => {
  it('lists the request files of the folder with their requests, methods and a broken file', async () => {
    const h = await open();
    const screen = h.text();
    expect(screen).toContain('✗ broken.http');
    // Folders are nodes of the tree, their files under them.
    expect(screen).toMatch(/▾ more\/[^\n]*\n│\s+▾ status\.http/);
    expect(screen).toMatch(/GET\s+list users/);
    expect(screen).toMatch(/POST\s+login/);
    expect(screen).not.toContain('package.json');
    expect(h.status()).toContain('dev');
    expect(h.status()).toContain('token: none');
    expect(h.status()).toContain('broken.http');
    expect(screen.split('\n')).toHaveLength(24);
    for (const line of screen.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
  });

  it('shows the selected request after substitution with secrets masked, and moves with j/k and arrows', async () => {
    const h = await open();
    await selectRequest(h, 'list users');
    const screen = await h.waitFor(`GET ${api.url}/users`);
    expect(screen).toContain('X-Api-Key: •••');
    expect(screen).not.toContain('k-123456789');
    await h.press('down');
    await h.waitFor('Request · login');
    await h.press('k');
    await h.waitFor('Request · list users');
  });

  it('marks variables that nothing defines yet', async () => {
    const h = await open();
    await selectRequest(h, 'ghost');
    await h.waitFor('not defined yet: {{userId}}');
  });

  it('shows the parse error of a broken file in the detail pane', async () => {
    const h = await open();
    await h.press('g');
    const screen = await h.waitFor('unexpected text');
    expect(screen).toContain('broken.http:1');
  });

  it('filters requests by name with /', async () => {
    const h = await open();
    await h.press('/');
    await h.type('slo');
    let screen = await h.waitFor('Requests /slo');
    expect(screen).toMatch(/GET\s+slow/);
    expect(screen).not.toMatch(/list users|login|ticks/);
    await h.type('x');
    screen = await h.waitFor('no request matches');
    await h.press('backspace', 'backspace', 'backspace', 'backspace');
    await h.type('tick');
    screen = await h.waitFor((s) => s.includes('ticks') && !s.includes('login'));
    await h.press('enter');
    await h.waitFor('Request · ticks');
    await h.press('escape');
    await h.waitFor((s) => s.includes('login'));
  });

  it('folds a folder and a file with Enter on its row, lists keys with ?, and quits with q', async () => {
    const h = await open();
    await h.press('j');
    await h.waitFor('a folder · Enter folds it');
    expect(h.text()).toMatch(/▾ more\//);
    await h.press('enter');
    await h.waitFor(/▸ more\//);
    expect(h.text()).not.toMatch(/status\.http|GET\s+not found/);
    await h.press('enter');
    await h.waitFor(/▾ more\//);
    await h.press('j', 'enter');
    await h.waitFor(/▸ status\.http/);
    expect(h.text()).not.toMatch(/GET\s+not found/);
    expect(h.text()).toMatch(/▾ stream\.http/);
    await h.press('?');
    const help = await h.waitFor('Keys');
    expect(help).toMatch(/↓  j\s+move down/);
    await h.press('pagedown');
    await h.waitFor('OSC 52');
    await h.press('escape');
    await h.waitFor((s) => !s.includes('OSC 52'));
    let quit = false;
    void h.tui.app.run().then(() => (quit = true));
    await h.press('q');
    // Waited for (bounded), not assumed to have happened within a fixed 20 ms.
    for (let i = 0; i < 250 && !quit; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(quit).toBe(true);
  });

  it('Tab moves the focus to the response pane, where j and k scroll', async () => {
    const h = await open();
    await send(h, 'list users');
    await h.waitFor('Ada Lovelace');
    const top = (): string => h.text().split('\n')[10] ?? '';
    expect(top()).toMatch(/│\{\s+│$/);
    await h.press('tab', 'tab');
    await h.press('j', 'j', 'j');
    await h.waitFor(() => !/│\{\s+│$/.test(top()));
    await h.press('k', 'k', 'k');
    await h.waitFor(() => /│\{\s+│$/.test(top()));
    // Back on the tree, j moves the selection again.
    await h.press('tab');
    await h.press('j');
    await h.waitFor('Request · login');
  });

  it('shows the token state from the session: valid for N min, expired', async () => {
    const write = (expiresAt: string): void =>
      writeSession(sessionFileFor(`${workspace.dir}/state-token`, workspace.dir, 'dev'), JSON.stringify({ version: 1, variables: { token: 'at-1234567890' }, data: { oauth: { grant: 'authorization_code', clientId: 'c', tokenType: 'Bearer', obtainedAt: new Date().toISOString(), expiresAt } } }));
    const tokenEnv = isolatedEnv(workspace.dir, `${workspace.dir}/state-token`);
    write(new Date(Date.now() + 42 * 60_000 + 30_000).toISOString());
    const valid = await startHarness({ dir: workspace.dir, env: tokenEnv });
    expect(valid.status()).toContain('token: valid for 42 min');
    await valid.close();
    write(new Date(Date.now() - 60_000).toISOString());
    const expired = await startHarness({ dir: workspace.dir, env: tokenEnv });
    expect(expired.status()).toContain('token: expired');
  });

  it('redraws on resize and stays inside 80x24 and smaller', async () => {
    const h = await open();
    await h.resize(100, 30);
    let screen = h.text();
    expect(screen.split('\n')).toHaveLength(30);
    expect(screen.split('\n')[0]).toMatch(/┐$/);
    expect([...(screen.split('\n')[0] ?? '')].length).toBe(100);
    await h.resize(80, 24);
    screen = h.text();
    expect([...(screen.split('\n')[0] ?? '')].length).toBe(80);
    expect(h.status()).toContain('? help');
    // An open window re-fits too, even on a small terminal.
    await h.press('?');
    await h.waitFor('Keys');
    await h.resize(50, 14);
    screen = h.text();
    expect(screen).toContain('Keys');
    for (const line of screen.split('\n')) expect([...line].length).toBeLessThanOrEqual(50);
    await h.press('escape');
    await h.resize(80, 24);
    await h.waitFor((s) => s.includes('Requests') && !s.includes('Keys'));
  });
});

describe('environments', () => {
  it('--env (here REQFLOW_ENV) picks an environment from http-client.env.json, which is not listed as a request file', async () => {
    const h = await startHarness({ dir: workspace.dir, env: { ...env(), REQFLOW_ENV: 'qa' } });
    expect(h.text()).not.toContain('http-client.env.json');
    await send(h, 'ghost');
    await h.waitFor('Alan Turing');
  });
});

describe('sending', () => {
  // First: the demo API's /slow handler keeps its timer after the cancel; later tests outlast it.
  it('cancels a slow request with Esc while it waits for the server', async () => {
    const h = await open();
    await send(h, 'slow');
    await h.waitFor(/sending… \d+\.\ds · Esc cancels/);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the request is on the wire by now
    await h.press('escape');
    await h.waitFor('cancelled slow', 3000);
    await send(h, 'not found');
    await h.waitFor('404 Not Found');
  });

  it('sends the selected request through the pipeline and shows status, time, size and the pretty body', async () => {
    const h = await open();
    await send(h, 'list users');
    const screen = await h.waitFor('Ada Lovelace');
    expect(screen).toMatch(/200 OK · \d+ ms · \d+ B/);
    expect(screen).toContain('"users": [');
    expect(h.status()).toContain('200 OK');
    // h toggles the response headers.
    await h.press('h');
    await h.waitFor('content-type: application/json');
    await h.press('h');
    await h.waitFor((s) => !s.includes('content-type: application/json'));
  });

  it('copies the body with y as an OSC 52 sequence', async () => {
    const h = await open();
    await send(h, 'list users');
    await h.waitFor('Ada Lovelace');
    h.output.written = '';
    await h.press('y');
    const match = /\u001b\]52;c;([A-Za-z0-9+/=]+)\u0007/.exec(h.output.written);
    expect(match).not.toBeNull();
    const copied = JSON.parse(Buffer.from(match?.[1] ?? '', 'base64').toString('utf8')) as { total: number };
    expect(copied.total).toBe(3);
    expect(h.status()).toContain('copied');
  });

  it('shows the response full screen with f and scrolls it', async () => {
    const h = await open();
    await send(h, 'list users');
    await h.waitFor('Ada Lovelace');
    await h.press('f');
    let screen = await h.waitFor((s) => !s.includes('Requests'));
    expect(screen).toContain('"users": [');
    await h.press('G');
    screen = await h.waitFor('"total": 3');
    expect(screen).not.toContain('"users": [');
    await h.press('escape');
    await h.waitFor('Requests');
  });

  it('asks interactive variables in a modal with hidden input, extracts the token and uses it', async () => {
    const h = await open();
    await send(h, 'login');
    await h.waitFor('Value of password');
    await h.type('secret');
    const modal = h.text();
    expect(modal).toContain('••••••');
    expect(modal).not.toContain('secret');
    await h.press('enter');
    await h.waitFor('token stored in the session');
    expect(h.status()).toContain('token: set');
    const session = JSON.parse(readFileSync(sessionFileFor(`${workspace.dir}/state`, workspace.dir, 'dev'), 'utf8')) as { variables: { token: string } };
    expect(api.tokens.has(session.variables.token)).toBe(true);
    // The request pane shows the request as sent, the password masked.
    expect(h.text()).toContain('"password": "•••"');
    await send(h, 'me');
    const screen = await h.waitFor('"scopes"');
    expect(screen).toContain('Authorization: •••');
    expect(screen).not.toContain(session.variables.token);
  });

  it('Esc in the prompt cancels the request with a clear message', async () => {
    const h = await open({ profile: 'dev' });
    await send(h, 'login');
    await h.waitFor('Value of password');
    await h.press('escape');
    await h.waitFor('prompt for "password" was cancelled');
  });

  it('switches the profile with p and re-substitutes the request', async () => {
    const h = await open();
    await selectRequest(h, 'list users');
    await h.waitFor(`GET ${api.url}/users`);
    await h.press('p');
    await h.waitFor('Profile');
    await h.press('j', 'enter');
    await h.waitFor('https://api.example.invalid/users');
    expect(h.status()).toMatch(/^ prod │/);
    await h.press('v');
    const vars = await h.waitFor('Variables · profile prod');
    expect(vars).toMatch(/apiKey\s+profile\s+•••/);
    expect(vars).toMatch(/baseUrl\s+profile\s+https:\/\/api\.example\.invalid/);
  });

  it('lists variables with their source (-e wins over the profile; secrets masked)', async () => {
    const h = await open({ variables: ['baseUrl=http://override.invalid', 'clientSecret=s3cr3t-value'] });
    await h.press('v');
    const screen = await h.waitFor('Variables · profile dev');
    expect(screen).toMatch(/baseUrl\s+-e\s+http:\/\/override\.invalid/);
    expect(screen).toMatch(/clientSecret\s+-e\s+•••/);
    expect(screen).toMatch(/password\s+profile\s+•••\s+interactive, asked when sent/);
    expect(screen).not.toContain('s3cr3t-value');
  });
});

describe('errors never break the UI', () => {
  it('shows a missing variable in the status bar and the detail pane', async () => {
    const h = await open();
    await send(h, 'ghost');
    // The message starts with the file and line the template is written on (it wraps in the pane).
    const screen = await h.waitFor('variable "userId" in request "ghost"');
    expect(screen).toMatch(/users\.http:17: unknown/);
    expect(screen).toContain('hint:');
    expect(h.status()).toContain('users.http:17: unknown variable "userId');
  });

  it('shows a refused connection and an HTTP error status', async () => {
    const h = await open();
    await send(h, 'refused');
    const screen = await h.waitFor('exits with 4');
    expect(screen).toMatch(/refused/);
    expect(h.status()).toMatch(/refused/);
    await send(h, 'not found');
    await h.waitFor('404 Not Found');
  });

  // openssl makes the server's certificate.
  needs(['openssl'], 'the TLS failure test').test('shows a TLS failure (self-signed server certificate)', async () => {
    const dir = tempDir('reqflow-tui-tls-');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${dir.dir}/key.pem`, '-out', `${dir.dir}/cert.pem`, '-days', '365', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    const server = createServer({ key: readFileSync(`${dir.dir}/key.pem`), cert: readFileSync(`${dir.dir}/cert.pem`) }, (_req, res) => res.end('{}'));
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      dir.write('tls.http', `### secure\nGET https://127.0.0.1:${(server.address() as AddressInfo).port}/\n`);
      const h = await startHarness({ dir: dir.dir, env: env() });
      await send(h, 'secure');
      const screen = await h.waitFor('exits with 5');
      expect(screen).toContain('self-signed');
      expect(h.status()).toContain('TLS error');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      dir.cleanup();
    }
  });

  it('shows stream events live until Esc stops the stream', async () => {
    const h = await open();
    await send(h, 'ticks');
    await h.waitFor(/streaming… \d+\.\ds · .*Esc stops/);
    await h.waitFor('id: 3');
    await h.press('escape');
    const screen = await h.waitFor('stopped by the user');
    expect(h.status()).toContain('stream stopped');
    expect(screen).not.toContain('id: 200');
  });

  it('chains: a request that refers to another runs it first, once per window; its checks are shown', async () => {
    const h = await open();
    const before = api.tokens.size;
    await send(h, 'my notes');
    await h.waitFor('"notes": []');
    expect(api.tokens.size).toBe(before + 1); // the login ran first
    await h.waitFor('✓ status == 200');
    await send(h, 'my notes');
    await h.waitFor('"notes": []');
    expect(api.tokens.size).toBe(before + 1); // and not again: its response is reused
  });

  it('restores the terminal on quit', async () => {
    const h = await open();
    expect(h.input.isRaw).toBe(true);
    await h.waitFor(() => h.output.written.includes('\u001b[?1049h'));
    await h.close();
    expect(h.input.isRaw).toBe(false);
    expect(h.output.written).toContain('\u001b[?1049l');
    expect(h.output.written).toContain('\u001b[?25h');
    expect(existsSync(workspace.dir)).toBe(true);
  });
});

/** Writes a session file as an earlier run would have left it. */
function writeSession(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { mode: 0o600 });
}
