/**
 * OAuth in the terminal UI: the `O` form saving `.profiles.json` surgically, and `o` running
 * the authorization code flow against the real oidc-provider of the OAuth tests, with the
 * browser simulated.
 */
import { sessionFileFor } from './helpers/session-file.js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadOAuthLogin } from '../src/tui/oauth-login.js';
import { tempDir } from './helpers/cli.js';
import { browse, type BrowseResult } from './helpers/oauth-browser.js';
import { harnessPerTest, isolatedEnv } from './helpers/tui-harness.js';
import { startOidcProvider } from './servers/oidc-provider.js';

let workspace: ReturnType<typeof tempDir>;
const startHarness = harnessPerTest();
const env = (): NodeJS.ProcessEnv => isolatedEnv(workspace.dir);

const PROFILES = `[
    {
        "name": "dev",
        "variables": { "baseUrl": "http://127.0.0.1:1", "note": "caf\\u00e9" },
        "headers": { "X-Env": "dev" }
    },
    {
        "name": "staging",
        "variables": {"baseUrl": "https://staging.example.com"},
        "oauth": {
            "authUrl": "https://old.example.com/authorize",
            "tokenUrl": "https://old.example.com/token",
            "clientId": "old-client",
            "clientSecret": "old-secret-value",
            "x-extra": true
        },
        "tls": { "caFile": "./ca.pem", "insecureSkipVerify": false }
    }
]
`;

beforeAll(() => {
  workspace = tempDir('reqflow-tui-oauth-');
  workspace.write('api.http', '### ping\nGET {{baseUrl}}/ping\n');
});

afterAll(() => workspace.cleanup());

describe('O: the OAuth settings form', () => {
  it('validates, then saves into .profiles.json changing only the edited keys', async () => {
    const path = workspace.write('.profiles.json', PROFILES);
    const h = await startHarness({ dir: workspace.dir, env: env(), profile: 'staging' });
    await h.press('O');
    let screen = await h.waitFor('OAuth settings · profile staging');
    expect(screen).toContain('https://old.example.com/authorize');
    expect(screen).toContain('old-client');
    expect(screen).not.toContain('old-secret-value');
    expect(screen).toMatch(/Client secret\s+•{5,}/);
    expect(screen).toContain(`saves into ${path}`);
    // An empty client ID is refused, with the field named.
    await h.press('down', 'down');
    await h.press('C-u');
    await h.press('enter');
    screen = await h.waitFor('Client ID is required');
    expect(readFileSync(path, 'utf8')).toBe(PROFILES);
    await h.type('new-client');
    // A redirect URL off this machine is refused too.
    await h.press('down', 'down', 'down');
    await h.type('https://evil.example.com/cb');
    await h.press('enter');
    await h.waitFor('must point at this machine');
    await h.press('C-u');
    await h.type('http://127.0.0.1:8765/callback');
    await h.press('up');
    await h.type('openid api:read');
    await h.press('enter');
    await h.waitFor((s) => !s.includes('OAuth settings ·'));
    expect(h.status()).toContain('saved');
    const expected = PROFILES.replace('"clientId": "old-client"', '"clientId": "new-client"').replace(
      '"x-extra": true\n',
      '"x-extra": true,\n            "scope": "openid api:read",\n            "redirectUrl": "http://127.0.0.1:8765/callback"\n',
    );
    expect(readFileSync(path, 'utf8')).toBe(expected);
    // The UI uses the new settings at once.
    await h.press('O');
    await h.waitFor('new-client');
    await h.press('escape');
  });

  it('has the grant type in the form: ←/→ changes it, and it is saved (the default is not written)', async () => {
    const path = workspace.write('.profiles.json', PROFILES);
    const h = await startHarness({ dir: workspace.dir, env: env(), profile: 'staging' });
    await h.press('O');
    await h.waitFor('OAuth settings · profile staging');
    await h.press('up', 'up');
    let screen = await h.waitFor('‹ authorization_code ›  ←/→ changes');
    await h.press('right');
    screen = await h.waitFor('‹ client_credentials ›');
    await h.press('right');
    await h.waitFor('‹ device_code ›');
    // The device grant needs its endpoint (no issuer for discovery here).
    await h.press('enter');
    screen = await h.waitFor('Device auth URL is required');
    await h.press('up');
    await h.press('left');
    await h.waitFor('‹ client_credentials ›');
    await h.press('enter');
    await h.waitFor((s) => !s.includes('OAuth settings ·'));
    expect(readFileSync(path, 'utf8')).toBe(PROFILES.replace('"x-extra": true\n', '"x-extra": true,\n            "grant": "client_credentials"\n'));
    expect(screen).not.toContain('old-secret-value');
  });

  it('creates .profiles.json when the folder has none, and Esc closes without saving', async () => {
    const dir = tempDir('reqflow-tui-oauth-new-');
    dir.write('a.http', 'GET https://example.com\n');
    try {
      const h = await startHarness({ dir: dir.dir, env: env() });
      await h.press('O');
      await h.waitFor('OAuth settings · profile default');
      await h.type('https://auth.example.com/authorize');
      await h.press('escape');
      await h.waitFor((s) => !s.includes('OAuth settings ·'));
      expect(() => readFileSync(`${dir.dir}/.profiles.json`)).toThrow();
      await h.press('O');
      await h.waitFor('OAuth settings · profile default');
      await h.type('https://auth.example.com/authorize');
      await h.press('tab');
      await h.type('https://auth.example.com/token');
      await h.press('tab');
      await h.type('cli-app');
      await h.press('enter');
      await h.waitFor((s) => !s.includes('OAuth settings ·'));
      expect(JSON.parse(readFileSync(`${dir.dir}/.profiles.json`, 'utf8'))).toEqual([
        { name: 'default', oauth: { authUrl: 'https://auth.example.com/authorize', tokenUrl: 'https://auth.example.com/token', clientId: 'cli-app' } },
      ]);
    } finally {
      dir.cleanup();
    }
  });

  it('shows an unreadable profiles file as an error instead of overwriting it', async () => {
    const path = workspace.write('.profiles.json', '[{"name": "dev" "x": 1}]');
    const h = await startHarness({ dir: workspace.dir, env: env() });
    expect(h.status()).toMatch(/profiles: \.profiles\.json:1:17: not valid JSON/);
    expect(h.text()).toContain('hint: the profiles file is a JSON array');
    await h.press('O');
    await h.waitFor('OAuth settings · profile default');
    await h.press('tab', 'tab');
    await h.type('x');
    await h.press('up', 'up');
    await h.type('https://a.example/authorize');
    await h.press('tab');
    await h.type('https://a.example/token');
    await h.press('enter');
    await h.waitFor('not valid JSON');
    expect(readFileSync(path, 'utf8')).toBe('[{"name": "dev" "x": 1}]');
    writeFileSync(path, PROFILES);
  });
});

describe('o: the OAuth login, against the real oidc-provider', () => {
  let provider: Awaited<ReturnType<typeof startOidcProvider>>;
  let folder: ReturnType<typeof tempDir>;
  let run = 0;
  let stateDir = '';
  /** Each test starts logged out: its own state folder. */
  const oauthEnv = (): NodeJS.ProcessEnv => {
    stateDir = `${folder.dir}/state-${(run += 1)}`;
    return isolatedEnv(folder.dir, stateDir);
  };

  beforeAll(async () => {
    provider = await startOidcProvider();
    folder = tempDir('reqflow-tui-login-');
    const endpoints = { authUrl: `${provider.issuer}/auth`, tokenUrl: `${provider.issuer}/token` };
    folder.write(
      '.profiles.json',
      JSON.stringify(
        [
          { name: 'public', variables: { apiUrl: provider.apiUrl }, oauth: { clientId: provider.clients.public.clientId, ...endpoints, scope: 'openid api:read', redirectUrl: 'http://127.0.0.1:0/callback' } },
          { name: 'machine', variables: { apiUrl: provider.apiUrl }, oauth: { grant: 'client_credentials', clientId: provider.clients.machine.clientId, clientSecret: provider.clients.machine.clientSecret, clientAuth: 'post', tokenUrl: endpoints.tokenUrl, scope: 'api:read' } },
          { name: 'device', variables: { apiUrl: provider.apiUrl }, oauth: { grant: 'device_code', clientId: provider.clients.public.clientId, tokenUrl: endpoints.tokenUrl, deviceUrl: `${provider.issuer}/device/auth`, scope: 'openid api:read' } },
          { name: 'none', variables: { apiUrl: provider.apiUrl } },
        ],
        null,
        2,
      ),
    );
    folder.write('api.http', '### me\nGET {{apiUrl}}\nAuthorization: Bearer {{token}}\n');
  });

  afterAll(async () => {
    await provider.close();
    folder.cleanup();
  });

  it('runs the authorization code flow in the (simulated) browser, stores the token and uses it', async () => {
    const pages: BrowseResult[] = [];
    const h = await startHarness({ dir: folder.dir, env: oauthEnv(), profile: 'public' }, { oauthLogin: loadOAuthLogin, openBrowser: async (url) => void pages.push(await browse(url)) });
    expect(h.status()).toContain('token: none');
    await h.press('o');
    await h.waitFor('OAuth login · public');
    const status = await h.waitFor((s) => (s.split('\n').pop() ?? '').includes('logged in'), 15_000);
    expect(status).not.toContain('OAuth login ·');
    expect(h.status()).toMatch(/token: valid for (59|60) min/);
    expect(pages[0]?.body).toContain('You can close this tab');
    const session = JSON.parse(readFileSync(sessionFileFor(stateDir, folder.dir, 'public'), 'utf8')) as { variables: { token: string }; data: { oauth: { refreshToken?: string } } };
    expect(session.variables.token).toMatch(/^[\w-]{20,}$/);
    expect(session.data.oauth.refreshToken).toBeDefined();
    // {{token}} now authenticates the protected API through the pipeline.
    await h.press('j', 'enter');
    const screen = await h.waitFor('"sub": "alice"');
    expect(screen).toMatch(/200 OK/);
    expect(screen).toContain('Authorization: •••');
    expect(screen).not.toContain(session.variables.token);
  });

  it('shows the URL while it waits, y copies it, Esc cancels and frees the callback port', async () => {
    let opened = '';
    const h = await startHarness({ dir: folder.dir, env: oauthEnv(), profile: 'public' }, { oauthLogin: loadOAuthLogin, openBrowser: async (url) => void (opened = url) });
    await h.press('o');
    const screen = await h.waitFor('y copies it');
    expect(screen).toContain(`${provider.issuer}/auth`);
    // What is awaited, where, and for how long: the callback server's own address.
    expect(screen).toContain('Grant: authorization_code');
    expect(screen).toContain('Waiting up to 5 min for the browser to bring the authorization code back');
    h.output.written = '';
    await h.press('y');
    const copied = /\u001b\]52;c;([A-Za-z0-9+/=]+)\u0007/.exec(h.output.written)?.[1] ?? '';
    expect(Buffer.from(copied, 'base64').toString('utf8')).toBe(opened);
    const redirect = new URL(new URL(opened).searchParams.get('redirect_uri') ?? '');
    expect(screen).toContain(`${redirect.host}/callback (reqflow listens there`);
    await h.press('escape');
    await h.waitFor('OAuth login cancelled');
    await expect(fetch(`${redirect.origin}/callback?code=x&state=y`)).rejects.toThrow();
    expect(h.status()).toContain('token: none');
  });

  it('shows a denied authorization in a detail window and the status bar', async () => {
    const h = await startHarness({ dir: folder.dir, env: oauthEnv(), profile: 'public' }, { oauthLogin: loadOAuthLogin, openBrowser: async (url) => void (await browse(url, { deny: true })) });
    await h.press('o');
    const screen = await h.waitFor('Esc closes', 15_000);
    expect(screen).toMatch(/access_denied|denied/);
    // Hints name keys, not commands.
    expect(screen).toContain('hint: press o to log in again and approve the request');
    expect(screen).toContain('after Esc: o tries again · O edits the OAuth settings');
    expect(screen).not.toContain('reqflow oauth');
    expect(screen).not.toContain('reqflow run');
    expect(h.status()).toMatch(/denied/);
    await h.press('escape');
    await h.waitFor((s) => !s.includes('OAuth login ·'));
  });

  it('device code profiles show the code to enter, then store the token once approved', async () => {
    const h = await startHarness({ dir: folder.dir, env: oauthEnv(), profile: 'device' }, { oauthLogin: loadOAuthLogin });
    await h.press('o');
    const screen = await h.waitFor('enter the code');
    const code = /^\W*([A-Z]{4}-[A-Z]{4})\W*$/m.exec(screen)?.[1];
    expect(code).toBeDefined();
    h.output.written = '';
    await h.press('y');
    const copied = Buffer.from(/\u001b\]52;c;([A-Za-z0-9+/=]+)\u0007/.exec(h.output.written)?.[1] ?? '', 'base64').toString('utf8');
    expect(copied).toContain(`${provider.issuer}/device`);
    await browse(copied, { userCode: code ?? '' });
    await h.waitFor((s) => (s.split('\n').pop() ?? '').includes('logged in'), 15_000);
    expect(h.status()).toMatch(/token: valid for (59|60) min/);
  });

  it('client credentials profiles get a token without a browser; profiles without oauth point at O', async () => {
    const h = await startHarness({ dir: folder.dir, env: oauthEnv(), profile: 'machine' }, { oauthLogin: loadOAuthLogin });
    await h.press('o');
    await h.waitFor((s) => (s.split('\n').pop() ?? '').includes('logged in'), 15_000);
    expect(h.status()).toMatch(/token: valid for (59|60) min/);
    await h.press('j', 'enter');
    await h.waitFor('"clientId": "reqflow-machine"');
    await h.close();
    const none = await startHarness({ dir: folder.dir, env: oauthEnv(), profile: 'none' }, { oauthLogin: loadOAuthLogin });
    await none.press('o');
    await none.waitFor('has no oauth settings: press O');
  });
});
