import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startDemoApi, type DemoApi } from './servers/demo-api.js';
import { expectCleanFailure } from './helpers/expect-error.js';
import { echoFixture, expectMaskedHeaders, expectNoSecrets } from './helpers/auth-project.js';

const TOKEN = 'tok-3f9a81c2e7d54b6a';

const f = echoFixture();
let demo: DemoApi;

beforeAll(async () => {
  demo = await startDemoApi();
});
afterAll(() => demo.close());

describe('bearer auth', () => {
  test('# @auth bearer sends the -e token, masked in -v output', async () => {
    f.p.write('api.http', `# @auth bearer\nGET ${f.echo.url}/anything\n`);
    const result = await f.p.run(['run', 'api.http', '-e', `token=${TOKEN}`, '-v']);
    expect(result.code).toBe(0);
    expect(f.echo.last().headers.authorization).toBe(`Bearer ${TOKEN}`);
    expectMaskedHeaders(result.stdout + result.stderr, ['Authorization']);
    expectNoSecrets(result, [TOKEN]);
  });

  test('profile "auth": {"type": "bearer"} with a profile variable applies to every request; -o json masks it', async () => {
    f.p.profiles([{ name: 'dev', variables: { token: TOKEN }, auth: { type: 'bearer' } }]);
    f.p.write('api.http', `### one\nGET ${f.echo.url}/one\n\n### two\nGET ${f.echo.url}/two\n`);
    const before = f.echo.requests.length;
    const result = await f.p.run(['run', 'api.http', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(f.echo.requests.slice(before).map((r) => r.headers.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
    const records = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { request: { headers: Record<string, string> } });
    expect(records.map((r) => r.request.headers.Authorization)).toEqual(['•••', '•••']);
    expectNoSecrets(result, [TOKEN]);
  });

  test('the token a login request leaves in the session authenticates the next request (same file), and the next run', async () => {
    f.p.write(
      'flow.http',
      [`### login`, `# @auth none`, `POST ${demo.url}/login`, 'Content-Type: application/json', '', '{"username": "alice", "password": "secret"}', '', '### me', '# @auth bearer', `GET ${demo.url}/me`, ''].join('\n'),
    );
    const first = await f.p.run(['run', 'flow.http']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('"user": "alice"');
    const again = await f.p.run(['run', 'flow.http', '-n', 'me']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('"scopes"');
    for (const token of demo.tokens) expect(again.stdout + again.stderr).not.toContain(token);
  });

  test('a token seeded in the session file is used; -e wins over the session', async () => {
    f.p.seedSession('default', { token: 'from-session-1234' });
    f.p.write('api.http', `# @auth bearer\nGET ${f.echo.url}/anything\n`);
    expect((await f.p.run(['run', 'api.http'])).code).toBe(0);
    expect(f.echo.last().headers.authorization).toBe('Bearer from-session-1234');
    expect((await f.p.run(['run', 'api.http', '-e', `token=${TOKEN}`])).code).toBe(0);
    expect(f.echo.last().headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  test("the request's own Authorization header wins; # @auth none opts out of the profile's method", async () => {
    f.p.profiles([{ name: 'dev', variables: { token: TOKEN }, auth: { type: 'bearer' } }]);
    f.p.write('api.http', `### own\nGET ${f.echo.url}/own\nauthorization: Basic abc=\n\n### none\n# @auth none\nGET ${f.echo.url}/none\n`);
    const before = f.echo.requests.length;
    expect((await f.p.run(['run', 'api.http'])).code).toBe(0);
    const [own, none] = f.echo.requests.slice(before);
    expect(own?.headers.authorization).toBe('Basic abc=');
    expect(none?.headers.authorization).toBeUndefined();
  });

  test('settings: a token template from the environment, another variable, another scheme', async () => {
    f.p.profiles([
      { name: 'env', auth: { type: 'bearer', token: '{{env.GH_TOKEN}}', scheme: 'token' } },
      { name: 'var', variables: { accessToken: TOKEN }, auth: { type: 'bearer', variable: 'accessToken' } },
    ]);
    f.p.write('api.http', `GET ${f.echo.url}/anything\n`);
    expect((await f.p.run(['run', 'api.http', '-p', 'env'], { GH_TOKEN: 'ghp_envtoken42' })).code).toBe(0);
    expect(f.echo.last().headers.authorization).toBe('token ghp_envtoken42');
    expect((await f.p.run(['run', 'api.http', '-p', 'var'])).code).toBe(0);
    expect(f.echo.last().headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  test('no token anywhere: exit 3 naming the three ways to set one, and nothing is sent', async () => {
    f.p.write('api.http', `### me\n# @auth bearer\nGET ${f.echo.url}/anything\n`);
    const before = f.echo.requests.length;
    const result = await f.p.run(['run', 'api.http']);
    expectCleanFailure(result, { code: 3, message: /request "me" uses bearer auth but no token is set/, hint: /-e token=\.\.\..*"variables" of profile "default".*session.*login request.*reqflow oauth login/ });
    expect(f.echo.requests.length).toBe(before);
  });

  test('an empty token is no token; a token with a line break is exit 3, not a crash', async () => {
    f.p.write('api.http', `# @auth bearer\nGET ${f.echo.url}/anything\n`);
    expectCleanFailure(await f.p.run(['run', 'api.http', '-e', 'token=']), { code: 3, message: /no token is set/ });
    const broken = await f.p.run(['run', 'api.http', '-e', `token=$(printf 'abc\\ndef-secret-part')`]);
    expectCleanFailure(broken, { code: 3, message: /header Authorization .* contains a character that cannot be sent/ });
    expect(broken.stderr).not.toContain('def-secret-part');
  });

  test('a malformed auth setting is exit 2 naming the field', async () => {
    f.p.profiles([{ name: 'dev', variables: { token: TOKEN }, auth: { type: 'bearer', scheme: 42 } }]);
    f.p.write('api.http', `GET ${f.echo.url}/anything\n`);
    expectCleanFailure(await f.p.run(['run', 'api.http']), { code: 2, message: /profile "dev": auth\.scheme: expected a string/ });
  });
});
