/**
 * OAuth tokens belong to the authorization server that issued them. A profile whose token
 * endpoint is a template (`{{idp}}/token`, resolved by `--env` or `-e`) or was edited since
 * the login names another server: the stored refresh token must never be sent there — to be
 * exchanged, or to be revoked — where it would hand one server's credential to another.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startOidcProvider } from './servers/oidc-provider.js';
import { stopAllClis } from './helpers/cli-live.js';
import { workspace, type Provider, type Workspace } from './helpers/oauth-fixture.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let provider: Provider;
let other: Recorder;
let ws: Workspace;

beforeAll(async () => {
  provider = await startOidcProvider();
  // Another server: it answers like a token endpoint, and records what it was sent.
  other = await startRecorder((_req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ access_token: 'other-access', token_type: 'Bearer', expires_in: 3600, refresh_token: 'other-refresh' }));
  });
});
afterAll(async () => {
  await Promise.all([provider.close(), other.close()]);
});
beforeEach(() => {
  provider.state.accessTokenTtl = 3600;
  const oauth = { clientId: provider.clients.public.clientId, authUrl: `${provider.issuer}/auth`, tokenUrl: '{{idp}}/token', revocationUrl: '{{idp}}/token/revocation', scope: 'openid api:read', redirectUrl: 'http://127.0.0.1:0/callback' };
  ws = workspace(provider, [{ name: 'env', variables: { apiUrl: provider.apiUrl, idp: provider.issuer }, oauth }]);
  other.received.length = 0;
});
afterEach(() => {
  stopAllClis();
  ws.cleanup();
});

/** Rewrites the stored expiry to a minute ago, as if time had passed. */
function expireStoredToken(profile: string): void {
  const session = ws.session(profile);
  session.data.oauth.expiresAt = new Date(Date.now() - 60_000).toISOString();
  writeFileSync(ws.sessionPath(profile), JSON.stringify(session));
}

/** Did the other server get the refresh token, in any form, anywhere? */
const otherGot = (secret: string): boolean => other.received.some((r) => `${r.url}\n${JSON.stringify(r.headers)}\n${r.body.toString('latin1')}`.includes(secret));

describe('a refresh token goes back only to the server that issued it', () => {
  test('a token endpoint that resolves to another server (-e, --env): exit 6 naming both, nothing sent there, the session kept', async () => {
    const { result } = await ws.loginInBrowser('env');
    expect(result.code).toBe(0);
    const stored = ws.session('env').data.oauth;
    expect(stored).toMatchObject({ tokenUrl: `${provider.issuer}/token` });
    const refreshToken = stored.refreshToken as string;
    expect(refreshToken).toBeTruthy();
    expireStoredToken('env');

    const elsewhere = await ws.run(['run', 'api.http', '-p', 'env', '-e', `idp=${other.url}`]);
    expect(elsewhere.code).toBe(6);
    expect(elsewhere.stderr).toContain(`the OAuth tokens of profile "env" were issued by ${provider.issuer}/token, and the profile names ${other.url}/token now: their refresh token is not sent there`);
    expect(elsewhere.stderr).toContain('reqflow oauth login -p env');
    expect(other.received).toEqual([]);
    expect(ws.session('env').data.oauth.refreshToken).toBe(refreshToken);

    // Against the server that issued it, the same session refreshes as before.
    const home = await ws.run(['run', 'api.http', '-p', 'env', '-o', 'json']);
    expect(home.stderr).toBe('');
    expect(home.code).toBe(0);
    expect(JSON.parse(home.stdout)).toMatchObject({ status: 200 });
    expect(otherGot(refreshToken)).toBe(false);
  });

  test('logout (the profile edited since the login) does not send the tokens to be revoked at a server that did not issue them; they are still removed here', async () => {
    await ws.loginInBrowser('env');
    const profilesPath = join(ws.dir, '.profiles.json');
    writeFileSync(profilesPath, readFileSync(profilesPath, 'utf8').replaceAll(`"idp": "${provider.issuer}"`, `"idp": "${other.url}"`));
    const { refreshToken } = ws.session('env').data.oauth as { refreshToken: string };
    const token = ws.session('env').variables.token as string;
    const out = await ws.run(['oauth', 'logout', '-p', 'env']);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(`the tokens of profile "env" were issued by ${provider.issuer}/token, not by the server the profile names now: not sent there to be revoked`);
    expect(other.received).toEqual([]);
    expect(otherGot(refreshToken) || otherGot(token)).toBe(false);
    expect(ws.session('env').variables.token).toBeUndefined();
  });
});
