/**
 * The variable editor (`v`) end to end on the real UI: edit a value, add and remove a variable,
 * cycle and pick a multi-value variable's option, name an option — each written to
 * `.profiles.json` at once, keeping its comments and unknown keys, and the request pane showing
 * the new value before anything is sent; then the send uses it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { startDemoApi, type DemoApi } from './servers/demo-api.js';
import { tempDir } from './helpers/cli.js';
import { harnessPerTest, isolatedEnv, type Harness } from './helpers/tui-harness.js';

let api: DemoApi;
let workspace: ReturnType<typeof tempDir>;
const startHarness = harnessPerTest();

const profiles = (url: string): string => `// profiles of the team
[
  {
    "name": "dev",
    "editor": "vim",
    "variables": {
      "baseUrl": {
        "options": ["http://127.0.0.1:1", "${url}"],
        "active": "nowhere",
        "aliases": { "nowhere": 0 }
      },
      "userId": "1", // first user
      "apiKey": "k-very-secret-777"
    }
  }
]
`;

beforeAll(async () => {
  api = await startDemoApi();
  workspace = tempDir('reqflow-tui-vars-');
  workspace.write('users.http', ['### one user', 'GET {{baseUrl}}/users/{{userId}}', 'X-Api-Key: {{apiKey}}', ''].join('\n'));
});

afterAll(async () => {
  await api.close();
  workspace.cleanup();
});

async function open(): Promise<Harness> {
  workspace.write('.profiles.json', profiles(api.url));
  const h = await startHarness({ dir: workspace.dir, env: isolatedEnv(workspace.dir), rows: 30, columns: 110 });
  await h.press('j');
  await h.waitFor('GET http://127.0.0.1:1/users/1');
  return h;
}

const file = (): string => readFileSync(`${workspace.dir}/.profiles.json`, 'utf8');

describe('the variable editor', () => {
  it('lists the profile variables with the active option, masks secrets, and edits a value the request pane shows at once', async () => {
    const h = await open();
    await h.press('v');
    const screen = await h.waitFor('Variables · profile dev');
    expect(screen).toMatch(/baseUrl\s+profile\s+http:\/\/127\.0\.0\.1:1 ‹1\/2 nowhere›/);
    expect(screen).toMatch(/apiKey\s+profile\s+•••/);
    expect(screen).not.toContain('k-very-secret-777');
    expect(screen).toContain('● http://127.0.0.1:1 (nowhere)');
    await h.press('j'); // userId
    await h.press('enter');
    await h.waitFor('userId =');
    await h.press('backspace');
    await h.type('2');
    await h.press('enter');
    await h.waitFor(/userId set · saved to \.profiles\.json/);
    expect(file()).toContain('"userId": "2", // first user');
    expect(file()).toContain('// profiles of the team');
    expect(file()).toContain('"editor": "vim"');
    await h.press('escape');
    await h.waitFor('GET http://127.0.0.1:1/users/2');
  });

  it('cycles the active option (→), names it (n), and the send goes to it', async () => {
    const h = await open();
    await h.press('v');
    await h.waitFor('Variables · profile dev');
    await h.press('right');
    await h.waitFor(/baseUrl: option 2 of 2/);
    expect(file()).toContain('"active": 1');
    await h.press('n');
    await h.waitFor('alias of option 2 of baseUrl');
    await h.type('demo');
    await h.press('enter');
    await h.waitFor(/‹2\/2 demo›/);
    expect(file()).toContain('"aliases": { "nowhere": 0, "demo": 1 }');
    await h.press('escape');
    await h.waitFor(`GET ${api.url}/users/1`);
    await h.press('enter');
    await h.waitFor(/200 OK/);
  });

  it('picks an option from the list (o), adds one (+), adds and removes a variable (a, d d); a secret is typed hidden', async () => {
    const h = await open();
    await h.press('v');
    await h.waitFor('Variables · profile dev');
    await h.press('o');
    await h.waitFor('baseUrl: active option');
    await h.press('j', 'enter');
    await h.waitFor(/baseUrl: option 2 of 2/);
    await h.press('+');
    await h.waitFor('new option of baseUrl');
    await h.type('http://localhost:9');
    await h.press('enter');
    await h.waitFor(/‹3\/3›/);
    await h.press('a');
    await h.waitFor('name of the new variable');
    await h.type('clientSecret');
    await h.press('enter');
    await h.waitFor('clientSecret =');
    await h.type('shh-123456');
    expect(h.text()).not.toContain('shh-123456');
    await h.press('enter');
    await h.waitFor(/clientSecret added/);
    expect(h.text()).toMatch(/clientSecret\s+profile\s+•••/);
    expect(JSON.stringify(file())).toContain('shh-123456');
    await h.press('d');
    await h.waitFor('d again removes clientSecret');
    await h.press('d');
    await h.waitFor(/clientSecret removed/);
    expect(file()).not.toContain('clientSecret');
    expect(file()).toContain('// profiles of the team');
  });

  it('shows -e values read only, winning over the profile', async () => {
    workspace.write('.profiles.json', profiles(api.url));
    const h = await startHarness({ dir: workspace.dir, env: isolatedEnv(workspace.dir), variables: ['userId=9'], rows: 30, columns: 110 });
    await h.press('v');
    const screen = await h.waitFor('Variables · profile dev');
    expect(screen).toMatch(/userId\s+profile\s+1\s+-e wins/);
    expect(screen).toMatch(/userId\s+-e\s+9/);
    await h.press('j', 'j', 'j');
    await h.waitFor('userId comes from the command line (-e): edited there, not here');
    await h.press('enter');
    expect(h.text()).not.toContain('userId =');
  });
});
