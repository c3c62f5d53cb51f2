/**
 * The client secret as HTTP Basic client authentication sends it (RFC 6749 §2.3.1: each part
 * form-encoded, then base64 of `id:secret`) is a secret too: a token endpoint whose error quotes
 * the Authorization header it got must not show a secret holding `_` or `-` in a form anyone can
 * decode. Held to openid-client's own encoding, the library reqflow sends with.
 */
import { describe, expect, test } from '@jest/globals';
import { ClientSecretBasic } from 'openid-client';
import { SecretRegistry } from '../src/core/mask.js';
import { clientSecretForms } from '../src/plugins/auth-oauth2/settings.js';

/** The Authorization header openid-client sends for this client. */
async function basicHeader(clientId: string, clientSecret: string): Promise<string> {
  const headers = new Headers();
  await ClientSecretBasic(clientSecret)({ issuer: 'https://as.test' }, { client_id: clientId }, new URLSearchParams(), headers);
  return headers.get('authorization') ?? '';
}

describe('the client secret as Basic client authentication sends it', () => {
  test.each([
    ['ci-bot', 'WRONGSECRET_999'],
    ['client.one', "s3cr3t-with (all)*~!'"],
    ['plain', 'alphanumeric0123'],
    ['ünïcode', 'pässwörd with spaces'],
  ])('%s / %s: masked wherever an error quotes it', async (clientId, clientSecret) => {
    const header = await basicHeader(clientId, clientSecret);
    expect(header).toMatch(/^Basic [A-Za-z0-9+/=]+$/);
    const secrets = new SecretRegistry();
    for (const secret of clientSecretForms({ clientId, clientSecret })) secrets.add(secret);
    const echoed = secrets.scrub(`invalid_client (auth ${header}; body client_secret=${encodeURIComponent(clientSecret)})`);
    expect(echoed).not.toContain(header.slice('Basic '.length));
    expect(echoed).toContain('auth Basic •••');
    const decoded = Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8');
    expect(secrets.scrub(decoded)).not.toContain(decoded.slice(decoded.indexOf(':') + 1));
  });

  test('no secret, nothing to register', () => {
    expect(clientSecretForms({ clientId: 'public' })).toEqual([]);
    expect(clientSecretForms({ clientId: 'public', clientSecret: '' })).toEqual([]);
  });
});
