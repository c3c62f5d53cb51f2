/**
 * An authorization server behind a private CA: the profile's `tls.caFile` is trusted by the
 * OAuth endpoints as well as by the requests (one place to set it, no NODE_EXTRA_CA_CERTS).
 * A real oidc-provider over HTTPS with a certificate from the tests' own openssl CA.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from '@jest/globals';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startOidcProvider } from './servers/oidc-provider.js';
import { makeCerts, type TestCerts } from './helpers/certs.js';
import { workspace, type Provider, type Workspace } from './helpers/oauth-fixture.js';
import { needs } from './helpers/system-programs.js';

// Skipped without openssl: its certificates are made by openssl (helpers/certs.ts).
const { describe, test } = needs(['openssl']);

let certs: TestCerts;
let provider: Provider;
let ws: Workspace;

beforeAll(async () => {
  certs = makeCerts();
  provider = await startOidcProvider({ tls: certs.server });
}, 60_000);
afterAll(async () => {
  await provider.close();
  certs.cleanup();
});
beforeEach(() => {
  const machine = { clientId: provider.clients.machine.clientId, clientSecret: provider.clients.machine.clientSecret, clientAuth: 'post', grant: 'client_credentials', tokenUrl: `${provider.issuer}/token`, scope: 'api:read' };
  const variables = { apiUrl: provider.apiUrl };
  ws = workspace(provider, [
    // Relative to the folder of .profiles.json, like every tls path of a profile.
    { name: 'private-ca', variables, tls: { caFile: 'certs/ca.pem' }, oauth: machine },
    { name: 'discovery-ca', variables, tls: { caFile: 'certs/ca.pem' }, oauth: { ...machine, tokenUrl: undefined, issuer: provider.issuer } },
    { name: 'no-ca', variables, oauth: machine },
    { name: 'missing-ca', variables, tls: { caFile: 'certs/nope.pem' }, oauth: machine },
  ]);
  mkdirSync(join(ws.dir, 'certs'));
  copyFileSync(certs.ca.cert, join(ws.dir, 'certs', 'ca.pem'));
});
afterEach(() => ws.cleanup());

describe('OAuth endpoints behind a private CA', () => {
  test('the profile tls.caFile lets the token be fetched over HTTPS and the request use it', async () => {
    expect(provider.issuer).toMatch(/^https:/);
    const run = await ws.run(['run', 'api.http', '-p', 'private-ca', '-o', 'raw']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ clientId: provider.clients.machine.clientId });
  });

  test('OpenID discovery over HTTPS trusts the same CA', async () => {
    const run = await ws.run(['run', 'api.http', '-p', 'discovery-ca', '-o', 'raw']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ clientId: provider.clients.machine.clientId });
  });

  test('oauth login uses the same trust', async () => {
    const login = await ws.run(['oauth', 'login', '-p', 'private-ca']);
    expect(login.code).toBe(0);
    expect(ws.session('private-ca').variables.token).toEqual(expect.any(String));
  });

  test('without the CA, the certificate is refused: exit 5 naming the OAuth endpoint, no stack trace', async () => {
    const run = await ws.run(['run', 'api.http', '-p', 'no-ca']);
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(new RegExp(`^reqflow: cannot reach the OAuth endpoint ${provider.issuer.replace(/\./g, '\\.')}/token: .*certificate`, 'm'));
    expect(run.stderr).not.toMatch(/\n\s+at /);
    // The hint names what helps: the CA. insecureSkipVerify applies to requests, never to OAuth endpoints.
    expect(run.stderr).toMatch(/^hint: trust the CA .*tls\.caFile/m);
    expect(run.stderr).not.toContain('insecureSkipVerify');
  });

  test('a CA file that does not exist is exit 5 naming the profile setting', async () => {
    const run = await ws.run(['run', 'api.http', '-p', 'missing-ca']);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain(`CA file not found: ${join(ws.dir, 'certs', 'nope.pem')} (tls.caFile of profile "missing-ca")`);
  });
});
