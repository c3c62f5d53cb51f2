/**
 * `reqflow oauth login` (authorization code flow) against a real OpenID provider, with the
 * browser simulated by plain HTTP and a cookie jar; then `{{token}}` against a protected API.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { startOidcProvider } from './servers/oidc-provider.js';
import { startCli, stopAllClis } from './helpers/cli-live.js';
import { browse } from './helpers/oauth-browser.js';
import { callApi, closedPort, workspace, type Provider, type Workspace } from './helpers/oauth-fixture.js';

let provider: Provider;
let ws: Workspace;

beforeAll(async () => {
  provider = await startOidcProvider();
});
afterAll(async () => {
  await provider.close();
});
beforeEach(() => {
  ws = workspace(provider, [
    { name: 'no-client', oauth: { authUrl: `${provider.issuer}/auth`, tokenUrl: `${provider.issuer}/token` } },
    { name: 'no-auth-url', oauth: { clientId: 'x', tokenUrl: `${provider.issuer}/token` } },
    { name: 'plain-http', oauth: { clientId: 'x', authUrl: 'http://idp.example.test/auth', tokenUrl: 'http://idp.example.test/token' } },
    { name: 'remote-redirect', oauth: { clientId: 'x', authUrl: `${provider.issuer}/auth`, tokenUrl: `${provider.issuer}/token`, redirectUrl: 'https://app.example.com/callback' } },
    { name: 'no-oauth', variables: { apiUrl: provider.apiUrl } },
  ]);
});
afterEach(() => {
  stopAllClis();
  ws.cleanup();
});

describe('authorization code flow', () => {
  test('public client: PKCE (S256), tokens in the session, {{token}} authenticates the API', async () => {
    const { result, page, url } = await ws.loginInBrowser('public');
    expect(result.stderr).toContain('Open this URL in a browser to log in to profile "public"');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Logged in to profile "public" \(authorization_code\): expires in (59|60) min, refresh token stored, scopes: api:read\.\n$/);

    const sent = new URL(url);
    expect(sent.origin + sent.pathname).toBe(`${provider.issuer}/auth`);
    expect(sent.searchParams.get('code_challenge_method')).toBe('S256');
    expect(sent.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(sent.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(sent.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(page.status).toBe(200);
    expect(page.body).toContain('You can close this tab');

    const session = ws.session('public');
    const token = session.variables.token as string;
    expect(token).toMatch(/^[\w-]{20,}$/);
    expect(session.data.oauth).toMatchObject({ grant: 'authorization_code', clientId: 'reqflow-public', tokenType: 'Bearer', scope: 'api:read' });
    expect(session.data.oauth.refreshToken).toMatch(/^[\w-]{20,}$/);
    expect(statSync(ws.sessionPath('public')).mode & 0o777).toBe(0o600);
    // Neither the token nor the PKCE verifier is ever printed.
    for (const text of [result.stdout, result.stderr]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(session.data.oauth.refreshToken);
      expect(text).not.toMatch(/code_verifier/);
    }

    const api = await ws.run(['run', 'api.http', '-p', 'public', '-o', 'json']);
    expect(api.code).toBe(0);
    const record = JSON.parse(api.stdout);
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({ sub: 'alice', clientId: 'reqflow-public', scope: 'api:read' });
    expect(api.stdout + api.stderr).not.toContain(token);
  });

  test('confidential client: the secret (from {{env.X}}) authenticates the code exchange, and PKCE still protects it', async () => {
    const { result, url } = await ws.loginInBrowser('confidential', { login: 'bob' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Logged in to profile "confidential" (authorization_code)');
    expect(result.stdout).toContain('scopes: api:read api:write');
    const sent = new URL(url);
    expect(sent.searchParams.get('code_challenge_method')).toBe('S256'); // PKCE on every login (RFC 9700), confidential clients too
    expect(sent.searchParams.get('redirect_uri')).toMatch(/^http:\/\/localhost:\d+\/callback$/);
    expect(result.stdout + result.stderr).not.toContain(provider.clients.confidential.clientSecret);

    const api = await ws.run(['run', 'api.http', '-p', 'confidential', '-o', 'json']);
    expect(JSON.parse(api.stdout).body).toMatchObject({ sub: 'bob', clientId: 'reqflow-confidential' });
  });

  test('issuer discovery: endpoints from .well-known, iss checked, ID token validated', async () => {
    const { result } = await ws.loginInBrowser('discovery');
    expect(result.code).toBe(0);
    const { token } = ws.session('discovery').variables;
    expect((await callApi(provider, token as string)).status).toBe(200);
  });

  test('opens the system browser through `open` ($BROWSER) and still prints the URL', async () => {
    const urlFile = join(ws.dir, 'opened-url.txt');
    const fakeBrowser = join(ws.dir, 'fake-browser.sh');
    writeFileSync(fakeBrowser, `#!/bin/sh\nprintf '%s' "$1" > '${urlFile}'\n`);
    chmodSync(fakeBrowser, 0o755);
    const cli = startCli(['oauth', 'login', '-p', 'public'], { cwd: ws.dir, env: { ...ws.env, BROWSER: fakeBrowser } });
    const [, printed] = await cli.waitForStderr(/^\s+(http\S+)$/m);
    expect(cli.stderr()).toContain('Opening your browser to log in to profile "public"');
    for (let i = 0; i < 100 && !existsSync(urlFile); i++) await new Promise((r) => setTimeout(r, 50));
    const opened = readFileSync(urlFile, 'utf8');
    expect(opened).toBe(printed);
    await browse(opened);
    const result = await cli.done;
    expect(result.code).toBe(0);
  });

  test('status shows the token masked, --show-token and --json reveal it; logout removes it', async () => {
    await ws.loginInBrowser('public');
    const token = ws.session('public').variables.token as string;

    const status = await ws.run(['oauth', 'status', '-p', 'public']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^profile: +public$/m);
    expect(status.stdout).toMatch(/^token: +•••$/m);
    expect(status.stdout).toMatch(/^grant: +authorization_code$/m);
    expect(status.stdout).toMatch(/^expires: +expires in (59|60) min \(\d{4}-\d\d-\d\dT/m);
    expect(status.stdout).toMatch(/^refresh: +yes/m);
    expect(status.stdout).toMatch(/^scopes: +api:read$/m);
    expect(status.stdout).not.toContain(token);

    const shown = await ws.run(['oauth', 'status', '-p', 'public', '--show-token']);
    expect(shown.stdout).toMatch(new RegExp(`^token: +${token}$`, 'm'));
    const json = JSON.parse((await ws.run(['oauth', 'status', '-p', 'public', '--json'])).stdout);
    expect(json).toMatchObject({ profile: 'public', usable: true, token: '•••', grant: 'authorization_code', expired: false, refreshable: true, scopes: ['api:read'] });
    expect(json.expiresIn).toBeGreaterThan(3500);

    const logout = await ws.run(['oauth', 'logout', '-p', 'public']);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toBe('Logged out of profile "public": removed its access and refresh tokens from the session.\n');
    expect(ws.session('public')).toMatchObject({ variables: {}, data: {} });
    expect((await ws.run(['oauth', 'logout', '-p', 'public'])).stdout).toBe('Profile "public" had no OAuth tokens.\n');

    const after = await ws.run(['oauth', 'status', '-p', 'public']);
    expect(after.code).toBe(6);
    expect(after.stdout).toMatch(/^token: +none$/m);
    expect(after.stderr).toBe('reqflow: profile "public" has no OAuth token\nhint: reqflow oauth login -p public\n');

    const api = await ws.run(['run', 'api.http', '-p', 'public']);
    expect(api.code).toBe(6);
    expect(api.stderr).toBe('reqflow: profile "public" has no OAuth token yet\nhint: log in first: reqflow oauth login -p public\n');
  });
});

describe('login errors: one line, exit 6 (flow) or 2 (profile)', () => {
  test('the user denies access', async () => {
    const { result, page } = await ws.loginInBrowser('public', { deny: true });
    expect(page.body).toContain('Login failed');
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('reqflow: access denied: access_denied (End-User aborted interaction)\nhint: run reqflow oauth login -p public again and approve the request\n');
    expect(existsSync(ws.sessionPath('public'))).toBe(false);
  });

  test('a callback with the wrong state is refused and the login keeps waiting (here until --wait runs out), without a token', async () => {
    const cli = startCli(['oauth', 'login', '-p', 'public', '--no-browser', '--wait', '2'], { cwd: ws.dir, env: ws.env });
    const [, url = ''] = await cli.waitForStderr(/^\s+(http\S+)$/m);
    const redirectUri = new URL(url).searchParams.get('redirect_uri') as string;
    // Other paths are not the callback: 404, and the login keeps waiting.
    expect((await fetch(new URL('/favicon.ico', redirectUri))).status).toBe(404);
    const forged = await fetch(`${redirectUri}?code=stolen-code&state=not-the-state`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('state mismatch');
    await cli.waitForStderr(/a callback that does not belong to this login \(wrong or missing state\) was refused; still waiting for yours/);
    const result = await cli.done;
    expect(result.code).toBe(6);
    expect(result.stderr).not.toContain('stolen-code');
    expect(existsSync(ws.sessionPath('public'))).toBe(false);
  });

  test('the callback port is already in use', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      writeFileSync(join(ws.dir, 'busy.json'), JSON.stringify([{ name: 'busy', oauth: { clientId: 'reqflow-public', authUrl: `${provider.issuer}/auth`, tokenUrl: `${provider.issuer}/token`, redirectUrl: `http://127.0.0.1:${port}/callback` } }]));
      const result = await ws.run(['oauth', 'login', '--profiles', 'busy.json', '--no-browser']);
      expect(result.code).toBe(6);
      expect(result.stderr).toBe(
        `reqflow: cannot receive the OAuth callback: port ${port} on 127.0.0.1 is already in use\n` +
          `hint: set oauth.redirectUrl of profile "busy" to a free port (e.g. http://localhost:8080/callback) that the authorization server allows, or stop the program using port ${port}\n`,
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  test('localhost as the redirect host: the port taken on ::1 only is found too, not a hang', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '::1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      writeFileSync(join(ws.dir, 'busy6.json'), JSON.stringify([{ name: 'busy6', oauth: { clientId: 'reqflow-public', authUrl: `${provider.issuer}/auth`, tokenUrl: `${provider.issuer}/token`, redirectUrl: `http://localhost:${port}/callback` } }]));
      const started = Date.now();
      const result = await ws.run(['oauth', 'login', '--profiles', 'busy6.json', '--no-browser', '--wait', '30s']);
      expect(result.code).toBe(6);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(result.stderr).toMatch(new RegExp(`^reqflow: cannot receive the OAuth callback: port ${port} on localhost is already in use\n`));
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  test('gives up when the browser does not come back in time', async () => {
    const started = Date.now();
    const result = await ws.run(['oauth', 'login', '-p', 'public', '--no-browser', '--wait', '1s']);
    // Ended by --wait 1s: not before it, and by itself (exit 6, no signal) — the default wait, 5 min,
    // would have runCli kill it at 20 s.
    expect([result.code, result.signal]).toEqual([6, null]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(result.stderr).toMatch(/reqflow: timed out after 1 s waiting for the browser to return to http:\/\/127\.0\.0\.1:\d+\/callback\nhint: run reqflow oauth login -p public again \(with --no-browser, open the printed URL yourself\)\n$/);
  });

  test('Ctrl-C while waiting cancels the login: exit 130, the callback port is released', async () => {
    const cli = startCli(['oauth', 'login', '-p', 'public', '--no-browser'], { cwd: ws.dir, env: ws.env });
    const [, url = ''] = await cli.waitForStderr(/^\s+(http\S+)$/m);
    await cli.waitForStderr(/Waiting up to 5 min/);
    cli.kill('SIGINT');
    const result = await cli.done;
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/reqflow: cancelled\n$/);
    const redirectUri = new URL(url).searchParams.get('redirect_uri') as string;
    await expect(fetch(redirectUri)).rejects.toThrow();
  });

  test('invalid_client: a wrong client secret', async () => {
    const { result } = await ws.loginInBrowser('bad-secret');
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/reqflow: token endpoint rejected the request: invalid_client \(client authentication failed\)\nhint: check oauth.clientId and oauth.clientSecret of profile "bad-secret"/);
    expect(result.stderr).not.toContain('not-the-secret');
  });

  test('missing or unsafe settings are exit 2 naming the field, before any browser', async () => {
    const noClient = await ws.run(['oauth', 'login', '-p', 'no-client', '--no-browser']);
    expect(noClient.code).toBe(2);
    expect(noClient.stderr).toMatch(/^reqflow: profile "no-client": oauth.clientId is required\n/);

    const noAuthUrl = await ws.run(['oauth', 'login', '-p', 'no-auth-url', '--no-browser']);
    expect(noAuthUrl.code).toBe(2);
    expect(noAuthUrl.stderr).toBe('reqflow: profile "no-auth-url": oauth.authUrl is required for the browser login (authorization code flow)\nhint: set oauth.authUrl, or oauth.issuer to find the endpoints by OpenID discovery\n');

    const plain = await ws.run(['oauth', 'login', '-p', 'plain-http', '--no-browser']);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('oauth.authUrl uses plain http:// on idp.example.test');
    expect(plain.stderr).toContain('REQFLOW_OAUTH_ALLOW_HTTP=1');

    const remote = await ws.run(['oauth', 'login', '-p', 'remote-redirect', '--no-browser']);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toMatch(/oauth.redirectUrl must be a loopback http:\/\/ URL/);

    const none = await ws.run(['oauth', 'login', '-p', 'no-oauth']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^reqflow: profile "no-oauth" has no "oauth" settings\n/);

    const badWait = await ws.run(['oauth', 'login', '-p', 'public', '--wait', 'soon']);
    expect(badWait.code).toBe(2);
    expect(badWait.stderr).toMatch(/--wait expects a duration/);
  });

  test('an unreachable issuer (discovery) is a network error, exit 4', async () => {
    const port = await closedPort();
    writeFileSync(join(ws.dir, 'down.json'), JSON.stringify([{ name: 'down', oauth: { issuer: `http://127.0.0.1:${port}`, clientId: 'x' } }]));
    const result = await ws.run(['oauth', 'login', '--profiles', 'down.json', '--no-browser']);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(new RegExp(`^reqflow: cannot reach the OAuth endpoint http://127.0.0.1:${port}/.well-known/openid-configuration: connection refused by 127.0.0.1:${port}\\n`));
  });
});
