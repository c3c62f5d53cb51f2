/**
 * Finding things and switching context in the terminal UI (issue 25): the profile switch
 * redraws the request pane, environments are picked inside the UI, `/` starts empty and
 * searches names, paths, URLs and methods, the command palette runs any action, and key
 * bindings come from keybinds.json. Headless, against a real local API.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { tempDir } from './helpers/cli.js';
import { harnessPerTest, isolatedEnv, startHarness as startUnmanaged, type Harness, selectRequest } from './helpers/tui-harness.js';
import { startGateServer, type GateServer } from './servers/gate-server.js';

let api: GateServer;
let workspace: ReturnType<typeof tempDir>;
const startHarness = harnessPerTest();

beforeAll(async () => {
  api = await startGateServer();
  workspace = tempDir('reqflow-tui-finding-');
  workspace.write('package.json', '{"name": "project-root"}\n'); // environment files are searched up to here
  workspace.write('api.http', ['### alpha', 'GET {{baseUrl}}/alpha', '', '### beta', 'GET {{baseUrl}}/beta', '', '### echo who', 'GET {{baseUrl}}/echo?who={{who}}', ''].join('\n'));
  workspace.write('orders/other.http', ['### create order', 'POST {{baseUrl}}/orders', '', '### list orders', 'GET {{baseUrl}}/orders', ''].join('\n'));
  workspace.write('http-client.env.json', JSON.stringify({ qa: { who: 'qa-user' }, staging: { who: 'staging-user' } }));
  workspace.write('.vscode/settings.json', JSON.stringify({ 'rest-client.environmentVariables': { vscodeenv: { who: 'vs-user' } } }));
  workspace.write('.env.dotenvenv', 'who=dotenv-user\n');
  workspace.write(
    '.profiles.json',
    JSON.stringify([
      { name: 'dev', headers: { 'X-Env': 'dev-header' }, variables: { baseUrl: api.url } },
      { name: 'prod', headers: { 'X-Env': 'prod-header' }, variables: { baseUrl: 'https://api.example.invalid' } },
    ]),
  );
});

afterAll(async () => {
  await api.close();
  workspace.cleanup();
});

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ ...isolatedEnv(workspace.dir), ...extra });

function open(extra: NodeJS.ProcessEnv = {}): Promise<Harness> {
  return startHarness({ dir: workspace.dir, env: env(extra) });
}


describe('profiles and environments', () => {
  it("after switching profile the request pane shows the new profile's headers and URL, not the request as sent before", async () => {
    const h = await open();
    await selectRequest(h, 'alpha');
    await h.press('enter');
    let screen = await h.waitFor('(sent)');
    expect(screen).toContain('X-Env: dev-header');
    await h.press('p');
    await h.waitFor('Profile');
    await h.press('j', 'enter');
    screen = await h.waitFor('X-Env: prod-header');
    expect(screen).toContain('https://api.example.invalid/alpha');
    expect(screen).not.toContain('(sent)');
    expect(screen).not.toContain('dev-header');
  });

  it('e lists the environments of every kind found for the selected file and switches; the status bar names it and sends use it', async () => {
    const h = await open();
    await selectRequest(h, 'echo who');
    await h.waitFor('not defined yet: {{who}}');
    await h.press('e');
    const picker = await h.waitFor('Environment');
    for (const name of ['(none)', 'qa', 'staging', 'vscodeenv', 'dotenvenv']) expect(picker).toContain(name);
    await h.press('j', 'j', 'enter'); // sorted: (none), dotenvenv, qa, staging, vscodeenv
    await h.waitFor('who=qa-user');
    expect(h.status()).toMatch(/^ dev · env qa │/);
    await h.press('enter');
    await h.waitFor('"query": "?who=qa-user"');
    // Other kinds: VS Code's settings, httpyac's .env.NAME.
    await h.press('e');
    await h.waitFor('qa  (current)');
    await h.press('j', 'j', 'enter');
    await h.waitFor('who=vs-user');
    expect(h.status()).toMatch(/env vscodeenv │/);
    await h.press('e');
    await h.waitFor('vscodeenv  (current)');
    await h.press('k', 'k', 'k', 'enter');
    await h.waitFor('who=dotenv-user');
    // The request pane no longer says (sent): the request was sent with qa.
    expect(h.text()).not.toContain('(sent)');
  });
});

describe('the filter', () => {
  it('/ starts empty each time, and matches names, file paths, URLs and methods, case-insensitively', async () => {
    const h = await open();
    await h.press('/');
    await h.type('ALPHA');
    await h.waitFor('Requests /ALPHA');
    await h.press('enter');
    await h.press('/');
    let screen = await h.waitFor((s) => s.includes('Requests ') && !s.includes('/ALPHA'));
    await h.type('other.http'); // a file path
    screen = await h.waitFor('Requests /other.http');
    expect(screen).toMatch(/create order/);
    expect(screen).toMatch(/list orders/);
    expect(screen).not.toMatch(/alpha|beta/);
    await h.press('escape', '/');
    await h.type('/echo'); // a URL
    screen = await h.waitFor('Requests //echo');
    expect(screen).toContain('echo who');
    expect(screen).not.toMatch(/alpha|orders/);
    await h.press('escape', '/');
    await h.type('post'); // a method
    screen = await h.waitFor('Requests /post');
    expect(screen).toContain('create order');
    expect(screen).not.toMatch(/list orders|alpha/);
  });
});

describe('the command palette and key bindings', () => {
  it(': lists every action with its key, filters as you type, and Enter runs it (Ctrl-P opens it too)', async () => {
    const h = await open();
    await h.press(':');
    let screen = await h.waitFor('Commands');
    expect(screen).toMatch(/p\s+pick the profile/);
    await h.type('environ');
    screen = await h.waitFor((s) => !s.includes('pick the profile'));
    expect(screen).toMatch(/e\s+pick the environment/);
    await h.press('enter');
    await h.waitFor('(none)');
    await h.press('escape');
    await h.press('C-p');
    await h.waitFor('Commands');
    await h.type('headers');
    await h.press('enter');
    await h.waitFor('response headers shown');
  });

  it('keybinds.json in the config folder rebinds actions; ? and the palette show the new keys', async () => {
    const config = tempDir('reqflow-keybinds-');
    try {
      config.write('keybinds.json', JSON.stringify({ 'pick-environment': 'Z', palette: ['C-k'] }));
      const h = await open({ REQFLOW_CONFIG_DIR: config.dir });
      await h.press('e');
      expect(h.text()).not.toContain('(none)');
      await h.press('Z');
      await h.waitFor('(none)');
      await h.press('escape');
      await h.press('C-k');
      await h.waitFor('Commands');
      await h.type('environ');
      await h.waitFor(/Z\s+pick the environment/);
      await h.press('escape', '?');
      await h.waitFor('Keys');
      await h.press('pagedown');
      await h.waitFor(/Z\s+pick the environment/);
    } finally {
      config.cleanup();
    }
  });

  it('a bad keybinds.json stops the start with one line naming the file and the action or key', async () => {
    const config = tempDir('reqflow-keybinds-bad-');
    try {
      config.write('keybinds.json', JSON.stringify({ 'pick-env': 'E' }));
      await expect(startUnmanaged({ dir: workspace.dir, env: env({ REQFLOW_CONFIG_DIR: config.dir }) })).rejects.toThrow(/keybinds\.json: unknown action "pick-env"/);
      config.write('keybinds.json', JSON.stringify({ reload: 'p' }));
      await expect(startUnmanaged({ dir: workspace.dir, env: env({ REQFLOW_CONFIG_DIR: config.dir }) })).rejects.toThrow(/keybinds\.json: key "p" is bound to both "pick-profile" and "reload"/);
    } finally {
      config.cleanup();
    }
  });
});
