/**
 * Tokens after the login, against a real OpenID provider: refresh before the request, client
 * credentials fetched on demand, the device flow, and what an endpoint that misbehaves looks like.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startOidcProvider } from './servers/oidc-provider.js';
import { startCli, stopAllClis } from './helpers/cli-live.js';
import { browse } from './helpers/oauth-browser.js';
import { callApi, closedPort, workspace, type Provider, type Workspace } from './helpers/oauth-fixture.js';

let provider: Provider;
let ws: Workspace;
let downPort: number;

beforeAll(async () => {
  provider = await startOidcProvider();
  downPort = await closedPort();
});
afterAll(async () => {
  await provider.close();
});
beforeEach(() => {
  provider.state.accessTokenTtl = 3600;
  const machine = { clientId: provider.clients.machine.clientId, clientSecret: provider.clients.machine.clientSecret, clientAuth: 'post', grant: 'client_credentials' };
  ws = workspace(provider, [
    { name: 'down', variables: { apiUrl: provider.apiUrl }, oauth: { ...machine, tokenUrl: `http://127.0.0.1:${downPort}/token` } },
    { name: 'html', variables: { apiUrl: provider.apiUrl }, oauth: { ...machine, tokenUrl: `${provider.issuer}/not-oauth/html` } },
    { name: 'text', variables: { apiUrl: provider.apiUrl }, oauth: { ...machine, tokenUrl: `${provider.issuer}/not-oauth/text` } },
    { name: 'broken-json', variables: { apiUrl: provider.apiUrl }, oauth: { ...machine, tokenUrl: `${provider.issuer}/not-oauth/broken-json` } },
    { name: 'huge', variables: { apiUrl: provider.apiUrl }, oauth: { ...machine, tokenUrl: `${provider.issuer}/not-oauth/huge` } },
    { name: 'crlf-token', variables: { apiUrl: provider.apiUrl }, oauth: { ...machine, tokenUrl: `${provider.issuer}/not-oauth/crlf-token` } },
    { name: 'escape-scope', variables: { apiUrl: provider.apiUrl }, oauth: { ...machine, tokenUrl: `${provider.issuer}/not-oauth/escape-scope` } },
    { name: 'no-device-url', oauth: { clientId: provider.clients.public.clientId, tokenUrl: `${provider.issuer}/token` } },
    { name: 'revocable', variables: { apiUrl: provider.apiUrl }, oauth: { ...machine, tokenUrl: `${provider.issuer}/token`, revocationUrl: `${provider.issuer}/token/revocation` } },
    { name: 'revocation-down', variables: { apiUrl: provider.apiUrl }, oauth: { ...machine, tokenUrl: `${provider.issuer}/token`, revocationUrl: `http://127.0.0.1:${downPort}/revoke` } },
  ]);
});
afterEach(() => {
  stopAllClis();
  ws.cleanup();
});

const grants = (name: string): number => provider.state.grants[name] ?? 0;

/** Rewrites the stored expiry to a minute ago, as if time had passed; returns that expiry (ms). */
function expireStoredToken(profile: string, options: { dropRefreshToken?: boolean } = {}): number {
  const session = ws.session(profile);
  const expiresAt = Date.now() - 60_000;
  session.data.oauth.expiresAt = new Date(expiresAt).toISOString();
  if (options.dropRefreshToken) delete session.data.oauth.refreshToken;
  writeFileSync(ws.sessionPath(profile), JSON.stringify(session));
  return expiresAt;
}

/**
 * The N of "expired N s ago" in `text` is the token's age at some moment between `started` and
 * now: a loaded machine may take seconds to start the CLI, so no single N is right.
 */
function expectExpiredAgo(text: string, expiresAt: number, started: number): void {
  const seconds = Number(/expired (\d+) s ago/.exec(text)?.[1]);
  expect(seconds).toBeGreaterThanOrEqual(Math.round((started - expiresAt) / 1000));
  expect(seconds).toBeLessThanOrEqual(Math.round((Date.now() - expiresAt) / 1000));
}

describe('refresh before the request', () => {
  test('a token that expires within 30 s is refreshed first, and the new one is stored', async () => {
    provider.state.accessTokenTtl = 20;
    await ws.loginInBrowser('public');
    const before = ws.session('public');
    const refreshes = grants('refresh_token');

    const api = await ws.run(['run', 'api.http', '-p', 'public', '-o', 'json', '-v']);
    expect(api.code).toBe(0);
    expect(JSON.parse(api.stdout)).toMatchObject({ status: 200, body: { sub: 'alice', clientId: 'reqflow-public' } });
    expect(api.stderr).toMatch(/reqflow: oauth: refreshed the access token of profile "public" \(expires in \d+ s\)/);
    expect(grants('refresh_token')).toBe(refreshes + 1);
    const after = ws.session('public');
    expect(after.variables.token).not.toBe(before.variables.token);
    expect(Date.parse(after.data.oauth.expiresAt)).toBeGreaterThan(Date.parse(before.data.oauth.expiresAt));
    expect(after.data.oauth.refreshToken).toBeTruthy();
    expect(api.stdout + api.stderr).not.toContain(after.variables.token);
  });

  test('runs at once with an expired token refresh it once: the others use the token the first one saved', async () => {
    await ws.loginInBrowser('public');
    expireStoredToken('public');
    const refreshes = grants('refresh_token');
    // The provider rotates refresh tokens: the same one sent twice is refused (invalid_grant).
    const runs = await Promise.all(Array.from({ length: 4 }, () => ws.run(['run', 'api.http', '-p', 'public', '-o', 'json'])));
    expect(runs.map((run) => [run.code, run.stderr])).toEqual(runs.map(() => [0, '']));
    expect(grants('refresh_token')).toBe(refreshes + 1);
    expect(runs.map((run) => (JSON.parse(run.stdout) as { status: number }).status)).toEqual([200, 200, 200, 200]);
  });

  test('an expired token is refreshed; the old one no longer works, the new one does', async () => {
    provider.state.accessTokenTtl = 1;
    await ws.loginInBrowser('public');
    const old = ws.session('public').variables.token as string;
    await new Promise((r) => setTimeout(r, 1500));
    expect((await callApi(provider, old)).status).toBe(401);
    provider.state.accessTokenTtl = 3600;

    const api = await ws.run(['run', 'api.http', '-p', 'public']);
    expect(api.code).toBe(0);
    expect(api.stdout).toContain('"clientId": "reqflow-public"');
    const renewed = ws.session('public').variables.token as string;
    expect(renewed).not.toBe(old);
    expect((await callApi(provider, renewed)).status).toBe(200);
  });

  test('a fresh token is used as is: no refresh, and openid-client is not even loaded', async () => {
    await ws.loginInBrowser('public');
    const token = ws.session('public').variables.token;
    const refreshes = grants('refresh_token');
    // A module hook in the child reports every OAuth library it loads.
    writeFileSync(join(ws.dir, 'hooks.mjs'), "import { writeSync } from 'node:fs';\nexport async function load(url, context, next) {\n  if (/openid-client|oauth4webapi/.test(url)) writeSync(2, `LOADED ${url}\\n`);\n  return next(url, context);\n}\n");
    writeFileSync(join(ws.dir, 'register.mjs'), "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n");
    const traced = { NODE_OPTIONS: `--import ${join(ws.dir, 'register.mjs')}` };
    for (let i = 0; i < 2; i++) {
      const api = await ws.run(['run', 'api.http', '-p', 'public'], traced);
      expect(api.code).toBe(0);
      expect(api.stderr).not.toContain('LOADED');
    }
    expect(grants('refresh_token')).toBe(refreshes);
    expect(ws.session('public').variables.token).toBe(token);
    // The same hook does see it when a token must be fetched (the check itself works).
    expect((await ws.run(['run', 'api.http', '-p', 'machine'], traced)).stderr).toContain('LOADED file://');
  });

  test('a refresh the server rejects (invalid_grant) is exit 6 with a hint to log in', async () => {
    await ws.loginInBrowser('public');
    expect(await provider.revokeRefreshToken(ws.session('public').data.oauth.refreshToken)).toBe(true);
    expireStoredToken('public');
    const api = await ws.run(['run', 'api.http', '-p', 'public']);
    expect(api.code).toBe(6);
    expect(api.stderr).toMatch(/^reqflow: cannot refresh the OAuth token of profile "public": token endpoint rejected the request: invalid_grant \(grant request is invalid\)\nhint: log in again: reqflow oauth login -p public\n$/);
  });

  test('an expired token without a refresh token is exit 6 with a hint to log in', async () => {
    await ws.loginInBrowser('public');
    const expiresAt = expireStoredToken('public', { dropRefreshToken: true });
    const started = Date.now();
    const api = await ws.run(['run', 'api.http', '-p', 'public']);
    expect(api.code).toBe(6);
    expect(api.stderr).toMatch(/^reqflow: the OAuth token of profile "public" expired \d+ s ago and there is no refresh token\nhint: log in again: reqflow oauth login -p public\n$/);
    expectExpiredAgo(api.stderr, expiresAt, started);
    const status = await ws.run(['oauth', 'status', '-p', 'public']);
    expect(status.code).toBe(6);
    expect(status.stdout).toMatch(/^expires: +expired \d+ s ago/m);
    expectExpiredAgo(status.stdout, expiresAt, started);
    expect(status.stdout).toMatch(/^refresh: +no$/m);
  });

  test('-e token=... wins: nothing is refreshed or fetched', async () => {
    const before = grants('client_credentials');
    const api = await ws.run(['run', 'api.http', '-p', 'machine', '-e', 'token=not-a-real-token']);
    expect(api.code).toBe(1);
    expect(api.stdout).toContain('invalid_token');
    expect(grants('client_credentials')).toBe(before);
  });
});

describe('client credentials', () => {
  test('the token is fetched when a request needs it, then reused until it expires', async () => {
    const before = grants('client_credentials');
    const first = await ws.run(['run', 'api.http', '-p', 'machine', '-o', 'json']);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ status: 200, body: { sub: null, clientId: 'reqflow-machine', kind: 'ClientCredentials', scope: 'api:read' } });
    expect(grants('client_credentials')).toBe(before + 1);
    const session = ws.session('machine');
    expect(session.data.oauth).toMatchObject({ grant: 'client_credentials', scope: 'api:read' });
    expect(first.stdout + first.stderr).not.toContain(provider.clients.machine.clientSecret);

    expect((await ws.run(['run', 'api.http', '-p', 'machine'])).code).toBe(0);
    expect(grants('client_credentials')).toBe(before + 1);

    expireStoredToken('machine');
    expect((await ws.run(['run', 'api.http', '-p', 'machine'])).code).toBe(0);
    expect(grants('client_credentials')).toBe(before + 2);
    expect(ws.session('machine').variables.token).not.toBe(session.variables.token);
  });

  test('`oauth login` fetches one explicitly; `# @auth oauth2` sends it without an Authorization line', async () => {
    const login = await ws.run(['oauth', 'login', '-p', 'machine']);
    expect(login.code).toBe(0);
    expect(login.stdout).toMatch(/^Logged in to profile "machine" \(client_credentials\): expires in (59|60) min, no refresh token, scopes: api:read\.\n$/);
    writeFileSync(join(ws.dir, 'annotated.http'), '# @auth oauth2\nGET {{apiUrl}}\n');
    const api = await ws.run(['run', 'annotated.http', '-p', 'machine', '-v']);
    expect(api.code).toBe(0);
    expect(api.stdout + api.stderr).toMatch(/Authorization: •••/);
    expect(api.stdout).toContain('"kind": "ClientCredentials"');
  });
});

describe('device flow (RFC 8628)', () => {
  test('prints the URL and code, polls until approved in a browser', async () => {
    const cli = startCli(['oauth', 'login', '-p', 'device', '--device'], { cwd: ws.dir, env: ws.env });
    const [, code = ''] = await cli.waitForStderr(/enter the code:\n {2}(\S+)\n/);
    const [, complete = ''] = await cli.waitForStderr(/\(or open (\S+)\)/);
    expect(cli.stderr()).toContain(`To log in to profile "device", open ${provider.issuer}/device in a browser and enter the code:`);
    expect(complete).toBe(`${provider.issuer}/device?user_code=${code}`);
    const page = await browse(complete, { login: 'carol' });
    expect(page.body).toContain('Sign-in Success');
    const result = await cli.done;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Logged in to profile "device" \(device_code\): expires in (59|60) min, refresh token stored, scopes: api:read\.\n$/);
    const api = await ws.run(['run', 'api.http', '-p', 'device', '-o', 'json']);
    expect(JSON.parse(api.stdout).body).toMatchObject({ sub: 'carol', clientId: 'reqflow-public' });
  });

  test('the user aborts on the device page: access denied, exit 6', async () => {
    const cli = startCli(['oauth', 'login', '-p', 'device', '--device'], { cwd: ws.dir, env: ws.env });
    const [, complete = ''] = await cli.waitForStderr(/\(or open (\S+)\)/);
    await browse(complete, { deny: true });
    const result = await cli.done;
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/reqflow: access denied: access_denied \(.+\)\nhint: run reqflow oauth login -p device again and approve the request\n$/);
  });

  test('honours slow_down: the next poll waits 5 s longer', async () => {
    const cli = startCli(['oauth', 'login', '-p', 'device', '--device'], { cwd: ws.dir, env: ws.env });
    const [, complete = ''] = await cli.waitForStderr(/\(or open (\S+)\)/);
    const polls = provider.state.tokenRequests.length;
    provider.slowDownNextPolls(1);
    await browse(complete);
    const result = await cli.done;
    expect(result).toMatchObject({ code: 0 });
    const times = provider.state.tokenRequests.slice(polls);
    expect(times).toHaveLength(2);
    // interval 1 s + 5 s after slow_down (RFC 8628 §3.5)
    expect((times[1] as number) - (times[0] as number)).toBeGreaterThanOrEqual(5500);
  }, 60_000); // ~9 s here, 6 s of it the polls' waits: a hang bound, not a measure

  test('time-out while waiting for approval', async () => {
    const result = await ws.run(['oauth', 'login', '-p', 'device', '--device', '--wait', '1500ms']);
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/reqflow: timed out after 2 s waiting for the code \S+ to be approved\nhint: run reqflow oauth login -p device --device again\n$/);
  });

  test('no device endpoint: exit 2 naming oauth.deviceUrl', async () => {
    const result = await ws.run(['oauth', 'login', '-p', 'no-device-url', '--device']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('reqflow: profile "no-device-url": oauth.deviceUrl is required for the device flow (--device)\nhint: set oauth.deviceUrl, or oauth.issuer to find the endpoints by OpenID discovery\n');
  });
});

describe('endpoints that are down or not OAuth', () => {
  test('unreachable token endpoint: exit 4', async () => {
    const result = await ws.run(['run', 'api.http', '-p', 'down']);
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(`reqflow: cannot reach the OAuth endpoint http://127.0.0.1:${downPort}/token: connection refused by 127.0.0.1:${downPort}\nhint: is the server running and listening on that port?\n`);
  });

  test('a web page, plain text or broken JSON instead of a token: exit 6 with a clear message', async () => {
    const html = await ws.run(['run', 'api.http', '-p', 'html']);
    expect(html.code).toBe(6);
    expect(html.stderr).toBe(`reqflow: token endpoint ${provider.issuer}/not-oauth/html answered HTTP 200 with text/html, not an OAuth JSON response\nhint: that is a web page: check profile "html": oauth.tokenUrl (it must be the OAuth token endpoint, not a login page)\n`);
    const text = await ws.run(['oauth', 'login', '-p', 'text']);
    expect(text.code).toBe(6);
    expect(text.stderr).toContain('answered HTTP 200 with text/plain, not an OAuth JSON response');
    const broken = await ws.run(['oauth', 'login', '-p', 'broken-json']);
    expect(broken.code).toBe(6);
    expect(broken.stderr).toBe(`reqflow: token endpoint ${provider.issuer}/not-oauth/broken-json answered with malformed JSON\nhint: check profile "broken-json": oauth.tokenUrl\n`);
    // Past a token response's size: reached (not a network fault), and no flag of `oauth login` to raise.
    const huge = await ws.run(['oauth', 'login', '-p', 'huge']);
    expect(huge.code).toBe(6);
    expect(huge.stderr).toContain(`the OAuth endpoint ${provider.issuer}/not-oauth/huge answered with more than 1 MiB: not a token response`);
    expect(huge.stderr).not.toMatch(/--max-size|cannot reach/);
    // A token with a line break is no token (RFC 6749: visible characters): exit 6 at login, nothing stored.
    const crlf = await ws.run(['oauth', 'login', '-p', 'crlf-token']);
    expect(crlf.code).toBe(6);
    expect(crlf.stderr).toContain("the token endpoint's access_token holds U+000D, which a token cannot: not a token response");
    expect((await ws.run(['oauth', 'status', '-p', 'crlf-token'])).stdout).not.toContain('AT');
    // The server's scope is its text: shown with its controls made visible, never run by the terminal.
    const scoped = await ws.run(['oauth', 'login', '-p', 'escape-scope']);
    expect(scoped.code).toBe(0);
    const status = await ws.run(['oauth', 'status', '-p', 'escape-scope']);
    for (const output of [scoped.stdout, status.stdout]) {
      expect(output).not.toContain('\u001b');
      expect(output).toContain('␛[2Jx');
    }
  });

  test('an endpoint that never answers: the hint names the profile\'s endpoint, not a flag oauth login does not have', async () => {
    const silent = await ws.run(['oauth', 'login', '-p', 'down']);
    expect(silent.code).toBe(4);
    expect(silent.stderr).not.toMatch(/--timeout|--max-size/);
    expect(silent.stderr).toMatch(/hint: (is the server|check the profile's oauth\.tokenUrl)/);
  });
});

describe('logout revokes the tokens at the server (RFC 7009)', () => {
  test('with a revocation endpoint, the old token stops working at the server', async () => {
    expect((await ws.run(['oauth', 'login', '-p', 'revocable'])).code).toBe(0);
    const token = ws.session('revocable').variables.token as string;
    expect((await callApi(provider, token)).status).toBe(200);

    const logout = await ws.run(['oauth', 'logout', '-p', 'revocable']);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toBe('Logged out of profile "revocable": revoked its tokens at the authorization server and removed them from the session.\n');
    expect(logout.stderr).toBe('');
    expect(ws.session('revocable')).toMatchObject({ variables: {}, data: {} });
    expect((await callApi(provider, token)).status).toBe(401);
  });

  test('the refresh token of a browser login is revoked too (endpoint found by discovery)', async () => {
    await ws.loginInBrowser('discovery');
    const { variables, data } = ws.session('discovery');
    expect((await callApi(provider, variables.token as string)).status).toBe(200);
    const logout = await ws.run(['oauth', 'logout', '-p', 'discovery']);
    expect(logout.stdout).toContain('revoked its tokens at the authorization server');
    expect((await callApi(provider, variables.token as string)).status).toBe(401);
    expect(await provider.revokeRefreshToken(data.oauth.refreshToken)).toBe(false); // already gone
  });

  test('--no-revoke only forgets the tokens here', async () => {
    expect((await ws.run(['oauth', 'login', '-p', 'revocable'])).code).toBe(0);
    const token = ws.session('revocable').variables.token as string;
    const logout = await ws.run(['oauth', 'logout', '-p', 'revocable', '--no-revoke']);
    expect(logout.stdout).toBe('Logged out of profile "revocable": removed its access and refresh tokens from the session.\n');
    expect(ws.session('revocable')).toMatchObject({ variables: {}, data: {} });
    expect((await callApi(provider, token)).status).toBe(200);
  });

  test('a revocation endpoint that is down: one warning, the tokens are still removed, exit 0', async () => {
    expect((await ws.run(['oauth', 'login', '-p', 'revocation-down'])).code).toBe(0);
    const token = ws.session('revocation-down').variables.token as string;
    const logout = await ws.run(['oauth', 'logout', '-p', 'revocation-down']);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toBe(
      `reqflow: warning: the tokens of profile "revocation-down" were not revoked at the server (cannot reach the OAuth endpoint http://127.0.0.1:${downPort}/revoke: connection refused by 127.0.0.1:${downPort}); they are removed from this machine only\n`,
    );
    expect(logout.stdout).toBe('Logged out of profile "revocation-down": removed its access and refresh tokens from the session.\n');
    expect(ws.session('revocation-down')).toMatchObject({ variables: {}, data: {} });
    expect(logout.stdout + logout.stderr).not.toContain(token);
  });
});
