import { beforeEach, describe, expect, test } from '@jest/globals';
import { echoFixture, expectMaskedHeaders, expectNoSecrets, expectQuietSuccess } from './helpers/auth-project.js';

const API_KEY = 'key-combined-61f0d2a9';
const ACCESS_TOKEN = 'at-combined-0b7e93c4a1';

const f = echoFixture();

beforeEach(() => {
  // A profile with an API key header, variables and OAuth, as in the README.
  f.p.profiles([
    {
      name: 'prod',
      variables: { baseUrl: f.echo.url, apiKey: '{{env.API_KEY}}' },
      headers: { 'X-API-Key': '{{apiKey}}', Accept: 'application/json' },
      // Never contacted: the session holds a token that is valid for another hour.
      oauth: { tokenUrl: 'http://127.0.0.1:9/token', clientId: 'reqflow-cli', scope: 'read write' },
    },
  ]);
  // What `reqflow oauth login -p prod` leaves behind.
  f.p.seedSession('prod', { token: ACCESS_TOKEN }, { oauth: { grant: 'authorization_code', clientId: 'reqflow-cli', tokenType: 'Bearer', obtainedAt: new Date().toISOString(), expiresAt: new Date(Date.now() + 3_600_000).toISOString() } });
});

describe('API key header, variables and OAuth together', () => {
  test('a request sends the profile headers and Authorization: Bearer {{token}} from the session', async () => {
    f.p.write('orders.http', '### orders\nGET {{baseUrl}}/orders\nAuthorization: Bearer {{token}}\n');
    const result = await f.p.run(['run', 'orders.http', '-v'], { API_KEY });
    expectQuietSuccess(result);
    const received = f.echo.last();
    expect(received.url).toBe('/orders');
    expect(received.headers['x-api-key']).toBe(API_KEY);
    expect(received.headers.accept).toBe('application/json');
    expect(received.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    expectMaskedHeaders(result.stdout + result.stderr, ['X-API-Key', 'Authorization']);
    expectNoSecrets(result, [API_KEY, ACCESS_TOKEN]);
  });

  test('the same with the # @auth bearer shorthand', async () => {
    f.p.write('orders.http', '# @auth bearer\nGET {{baseUrl}}/orders\n');
    const result = await f.p.run(['run', 'orders.http', '-o', 'json'], { API_KEY });
    expect(result.code).toBe(0);
    expect(f.echo.last().headers['x-api-key']).toBe(API_KEY);
    expect(f.echo.last().headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    expectNoSecrets(result, [API_KEY, ACCESS_TOKEN]);
  });
});
