import { describe, expect, test } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectCleanFailure } from './helpers/expect-error.js';
import { echoFixture, expectMaskedHeaders, expectNoSecrets } from './helpers/auth-project.js';
import { needs } from './helpers/system-programs.js';

const SIGNING_SECRET = 'sign-7d2f0a9e41c3b865';
const AUTH_TOKEN = 'custom-auth-5be0c4d1';

/** The recipe from docs/readme/auth.md: Unix seconds, and their HMAC-SHA256 by `openssl dgst`. */
const SIGNED_VARIABLES = {
  signingSecret: SIGNING_SECRET,
  authToken: AUTH_TOKEN,
  timestamp: '$(date +%s)',
  signature: "$(printf '%s' {{timestamp}} | openssl dgst -sha256 -hmac {{signingSecret}} -r | cut -d' ' -f1)",
};
/** `test` for the tests that sign with SIGNED_VARIABLES: skipped where there is no openssl. */
const signedTest = needs(['openssl'], 'the tests that sign with openssl dgst').test;
const SIGNED_HEADERS = { 'X-Custom-Auth': '{{authToken}}', 'X-Timestamp': '{{timestamp}}', 'X-Signature': '{{signature}}' };

const f = echoFixture({ hmacSecret: SIGNING_SECRET });

describe('custom signed headers', () => {
  signedTest('written out in the request: the server recomputes the HMAC of the timestamp with the same secret', async () => {
    f.p.profiles([{ name: 'dev', variables: SIGNED_VARIABLES }]);
    f.p.write('signed.http', `GET ${f.echo.url}/hmac\n${Object.entries(SIGNED_HEADERS).map(([n, v]) => `${n}: ${v}`).join('\n')}\n`);
    const result = await f.p.run(['run', '--trust', 'signed.http', '-v']);
    expect(result.stdout).toContain('"valid": true');
    expect(result.code).toBe(0);
    const received = f.echo.last().headers;
    expect(received['x-custom-auth']).toBe(AUTH_TOKEN);
    expect(received['x-signature']).toBe(createHmac('sha256', SIGNING_SECRET).update(String(received['x-timestamp'])).digest('hex'));
    expectMaskedHeaders(result.stdout + result.stderr, ['X-Custom-Auth', 'X-Signature']);
    expectNoSecrets(result, [SIGNING_SECRET, AUTH_TOKEN, String(received['x-signature'])]);
  });

  signedTest('# @auth custom adds the headers of profile auth {type: custom}; the server verifies them', async () => {
    f.p.profiles([{ name: 'dev', variables: SIGNED_VARIABLES, auth: { type: 'custom', headers: SIGNED_HEADERS } }]);
    f.p.write('signed.http', `### signed\n# @auth custom\nGET ${f.echo.url}/hmac\n`);
    const result = await f.p.run(['run', '--trust', 'signed.http']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"valid": true');
    expectNoSecrets(result, [SIGNING_SECRET, AUTH_TOKEN]);
  });

  signedTest('a signature made with another secret is refused by the server (exit 1): the check is real', async () => {
    f.p.profiles([{ name: 'dev', variables: { ...SIGNED_VARIABLES, signingSecret: 'not-the-secret' }, auth: { type: 'custom', headers: SIGNED_HEADERS } }]);
    f.p.write('signed.http', `GET ${f.echo.url}/hmac\n`);
    const result = await f.p.run(['run', '--trust', 'signed.http']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('X-Signature does not match');
  });

  signedTest('shell variables run once per request, in dependency order, even when used three times', async () => {
    const counter = join(f.p.dir, 'timestamp-runs.log');
    f.p.profiles([
      {
        name: 'dev',
        variables: { ...SIGNED_VARIABLES, counter, timestamp: '$(echo run >> {{counter}}; date +%s)' },
        auth: { type: 'custom', headers: SIGNED_HEADERS, query: { ts: '{{timestamp}}' } },
      },
    ]);
    f.p.write('two.http', `### first\nGET ${f.echo.url}/hmac\n\n### second\nGET ${f.echo.url}/hmac\n`);
    const before = f.echo.requests.length;
    const result = await f.p.run(['run', '--trust', 'two.http']);
    expect(result.code).toBe(0);
    expect(readFileSync(counter, 'utf8')).toBe('run\nrun\n');
    for (const request of f.echo.requests.slice(before)) {
      expect(request.query.get('ts')).toBe(request.headers['x-timestamp']);
      expect(request.headers['x-signature']).toBe(createHmac('sha256', SIGNING_SECRET).update(String(request.headers['x-timestamp'])).digest('hex'));
    }
  });

  test('the profile method applies without the annotation; # @auth none and own headers win', async () => {
    f.p.profiles([{ name: 'dev', variables: { authToken: AUTH_TOKEN }, auth: { type: 'custom', headers: { 'X-Custom-Auth': '{{authToken}}' } } }]);
    f.p.write('api.http', `### auto\nGET ${f.echo.url}/a\n\n### none\n# @auth none\nGET ${f.echo.url}/b\n\n### own\nGET ${f.echo.url}/c\nX-Custom-Auth: override\n`);
    const before = f.echo.requests.length;
    expect((await f.p.run(['run', '--trust', 'api.http'])).code).toBe(0);
    expect(f.echo.requests.slice(before).map((r) => r.headers['x-custom-auth'])).toEqual([AUTH_TOKEN, undefined, 'override']);
  });

  signedTest('opt-in: settings under auth.custom apply only to requests that say # @auth custom', async () => {
    f.p.profiles([{ name: 'dev', variables: SIGNED_VARIABLES, auth: { type: 'none', custom: { headers: SIGNED_HEADERS } } }]);
    f.p.write('api.http', `### public\nGET ${f.echo.url}/hmac\n\n### signed\n# @auth custom\nGET ${f.echo.url}/hmac\n`);
    const before = f.echo.requests.length;
    const result = await f.p.run(['run', '--trust', 'api.http']);
    expect(result.code).toBe(1); // the unsigned request is refused, the signed one is not
    const [unsigned, signed] = f.echo.requests.slice(before);
    expect(unsigned?.headers['x-signature']).toBeUndefined();
    expect(signed?.headers['x-signature']).toBe(createHmac('sha256', SIGNING_SECRET).update(String(signed?.headers['x-timestamp'])).digest('hex'));
  });

  test('# @auth custom without custom settings in the profile is exit 2; malformed settings name the field', async () => {
    f.p.write('api.http', `### c\n# @auth custom\nGET ${f.echo.url}/anything\n`);
    expectCleanFailure(await f.p.run(['run', '--trust', 'api.http']), { code: 2, message: /request "c" uses custom auth but profile "default" has no custom settings/, hint: /"type": "custom", "headers".*"custom": \{"headers"/ });
    f.p.profiles([{ name: 'dev', auth: { type: 'none', custom: { headers: { 'X-Sig': 7 } } } }]);
    expectCleanFailure(await f.p.run(['run', '--trust', 'api.http']), { code: 2, message: /profile "dev": auth\.custom\.headers\.X-Sig: expected a string/ });
  });

  test('a failing signature command is exit 3 naming the variable, with the secret scrubbed from the hint', async () => {
    f.p.profiles([
      {
        name: 'dev',
        variables: { signingSecret: SIGNING_SECRET, signature: "$(printf '%s' {{signingSecret}} | openssl dgst -sha256 -no-such-flag)" },
        auth: { type: 'custom', headers: { 'X-Signature': '{{signature}}' } },
      },
    ]);
    f.p.write('api.http', `GET ${f.echo.url}/anything\n`);
    const result = await f.p.run(['run', '--trust', 'api.http']);
    expectCleanFailure(result, { code: 3, message: /shell value of "signature" failed/ });
    expect(result.stderr).toContain('openssl dgst');
    expectNoSecrets(result, [SIGNING_SECRET]);
  });
});
