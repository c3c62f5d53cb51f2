import { describe, expect, test } from '@jest/globals';
import { expectCleanFailure } from './helpers/expect-error.js';
import { expectMaskedHeaders, expectNoSecrets, echoFixture } from './helpers/auth-project.js';

const KEY = 'key-9c1e77a0b3f24d15';

const f = echoFixture();

describe('API key auth', () => {
  test('written out: X-API-Key: {{apiKey}} with the key from {{env.API_KEY}}', async () => {
    f.p.profiles([{ name: 'dev', variables: { apiKey: '{{env.API_KEY}}' } }]);
    f.p.write('api.http', `GET ${f.echo.url}/anything\nX-API-Key: {{apiKey}}\n`);
    const result = await f.p.run(['run', 'api.http', '-v'], { API_KEY: KEY });
    expect(result.code).toBe(0);
    expect(f.echo.last().headers['x-api-key']).toBe(KEY);
    expectMaskedHeaders(result.stdout + result.stderr, ['X-API-Key']);
    expectNoSecrets(result, [KEY]);
  });

  test('a fixed entry in the profile headers is sent with every request', async () => {
    f.p.profiles([{ name: 'dev', headers: { 'X-API-Key': KEY } }]);
    f.p.write('api.http', `GET ${f.echo.url}/anything\n`);
    const result = await f.p.run(['run', 'api.http', '-v']);
    expect(result.code).toBe(0);
    expect(f.echo.last().headers['x-api-key']).toBe(KEY);
    expectNoSecrets(result, [KEY]);
  });

  test('# @auth apikey: header X-API-Key from the variable apiKey by default', async () => {
    f.p.profiles([{ name: 'dev', variables: { apiKey: KEY } }]);
    f.p.write('api.http', `# @auth apikey\nGET ${f.echo.url}/anything\n`);
    const result = await f.p.run(['run', 'api.http', '-v']);
    expect(result.code).toBe(0);
    expect(f.echo.last().headers['x-api-key']).toBe(KEY);
    expectMaskedHeaders(result.stdout + result.stderr, ['X-API-Key']);
    expectNoSecrets(result, [KEY]);
  });

  test('profile auth picks the header name and the variable; the request may set its own key', async () => {
    f.p.profiles([{ name: 'dev', variables: { googleKey: KEY }, auth: { type: 'apikey', header: 'X-Goog-Api-Key', variable: 'googleKey' } }]);
    f.p.write('api.http', `### default\nGET ${f.echo.url}/a\n\n### own\nGET ${f.echo.url}/b\nx-goog-api-key: mine\n`);
    const before = f.echo.requests.length;
    const result = await f.p.run(['run', 'api.http']);
    expect(result.code).toBe(0);
    const [first, second] = f.echo.requests.slice(before);
    expect(first?.headers['x-goog-api-key']).toBe(KEY);
    expect(second?.headers['x-goog-api-key']).toBe('mine');
  });

  test('"in": "query" adds the encoded key to the query, keeps the rest of the URL, and masks it in -v', async () => {
    const key = 'a+b/c=d&e f%';
    f.p.profiles([{ name: 'dev', variables: { apiKey: key }, auth: { type: 'apikey', in: 'query', name: 'api_key' } }]);
    f.p.write('api.http', `### q\nGET ${f.echo.url}/search?q=a%20b&page=2\n\n### bare\nGET ${f.echo.url}/plain\n\n### own\nGET ${f.echo.url}/own?api_key=mine\n`);
    const before = f.echo.requests.length;
    const result = await f.p.run(['run', 'api.http', '-v']);
    expect(result.code).toBe(0);
    const [q, bare, own] = f.echo.requests.slice(before);
    expect(q?.url).toBe(`/search?q=a%20b&page=2&api_key=${encodeURIComponent(key)}`);
    expect(q?.query.get('api_key')).toBe(key);
    expect(bare?.query.get('api_key')).toBe(key);
    expect(own?.url).toBe('/own?api_key=mine');
    expect(result.stdout + result.stderr).toMatch(/api_key=•••/);
    expectNoSecrets(result, [key]);
  });

  test('a "value" template instead of a variable', async () => {
    f.p.profiles([{ name: 'dev', auth: { type: 'apikey', value: '{{env.SERVICE_KEY}}', header: 'Api-Key' } }]);
    f.p.write('api.http', `GET ${f.echo.url}/anything\n`);
    expect((await f.p.run(['run', 'api.http'], { SERVICE_KEY: KEY })).code).toBe(0);
    expect(f.echo.last().headers['api-key']).toBe(KEY);
  });

  test('settings of a method other than the profile default sit under its name', async () => {
    f.p.profiles([{ name: 'dev', variables: { token: 'tok-unused-1', apiKey: KEY }, auth: { type: 'bearer', apikey: { in: 'query', name: 'key' } } }]);
    f.p.write('api.http', `### default\nGET ${f.echo.url}/a\n\n### key\n# @auth apikey\nGET ${f.echo.url}/b\n`);
    const before = f.echo.requests.length;
    expect((await f.p.run(['run', 'api.http'])).code).toBe(0);
    const [bearer, key] = f.echo.requests.slice(before);
    expect(bearer?.headers.authorization).toBe('Bearer tok-unused-1');
    expect(key?.headers.authorization).toBeUndefined();
    expect(key?.query.get('key')).toBe(KEY);
  });

  test('no key: exit 3 with a hint, nothing sent', async () => {
    f.p.write('api.http', `### k\n# @auth apikey\nGET ${f.echo.url}/anything\n`);
    const before = f.echo.requests.length;
    expectCleanFailure(await f.p.run(['run', 'api.http']), { code: 3, message: /request "k" uses API key auth but no key is set \(variable "apiKey"\)/, hint: /-e apiKey=\.\.\..*"variables" of profile "default".*env\.API_KEY/ });
    expect(f.echo.requests.length).toBe(before);
  });

  test('bad settings are exit 2 naming the field', async () => {
    f.p.write('api.http', `GET ${f.echo.url}/anything\n`);
    f.p.profiles([{ name: 'dev', variables: { apiKey: KEY }, auth: { type: 'apikey', in: 'cookie' } }]);
    expectCleanFailure(await f.p.run(['run', 'api.http']), { code: 2, message: /auth\.in: expected "header" or "query"/ });
    f.p.profiles([{ name: 'dev', variables: { apiKey: KEY }, auth: { type: 'apikey', header: 'X API Key' } }]);
    expectCleanFailure(await f.p.run(['run', 'api.http']), { code: 2, message: /auth\.header: expected a valid header name/ });
  });
});
