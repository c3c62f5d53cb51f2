import { describe, expect, test } from '@jest/globals';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expectCleanFailure } from './helpers/expect-error.js';
import { expectMaskedHeaders, expectNoSecrets, echoFixture } from './helpers/auth-project.js';

const f = echoFixture();

/** The user:password pair the server received, decoded as UTF-8. */
function receivedCredentials(): string {
  const header = String(f.echo.last().headers.authorization ?? '');
  expect(header).toMatch(/^Basic [A-Za-z0-9+/]+=*$/);
  return Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8');
}

describe('basic auth', () => {
  test('# @auth basic builds the header from username and password, UTF-8 safe, no shell involved', async () => {
    const password = `pä$$wörd 🔑 $(touch pwned) '"\`x\``;
    f.p.write('api.http', `# @auth basic\nGET ${f.echo.url}/anything\n`);
    const result = await f.p.run(['run', 'api.http', '-e', 'username=jürgen', '-e', `password=${password}`, '-v']);
    expect(result.code).toBe(0);
    expect(receivedCredentials()).toBe(`jürgen:${password}`);
    expect(existsSync(join(f.p.dir, 'pwned'))).toBe(false);
    expectMaskedHeaders(result.stdout + result.stderr, ['Authorization']);
    expectNoSecrets(result, [password, `jürgen:${password}`]);
  });

  test('profile auth basic with variables from the profile; an empty password is allowed', async () => {
    f.p.profiles([{ name: 'dev', variables: { username: 'svc', password: '' }, auth: { type: 'basic' } }]);
    f.p.write('api.http', `GET ${f.echo.url}/anything\n`);
    expect((await f.p.run(['run', 'api.http'])).code).toBe(0);
    expect(receivedCredentials()).toBe('svc:');
  });

  test('username and password templates in the profile auth settings', async () => {
    f.p.profiles([{ name: 'dev', variables: { user: 'deploy' }, auth: { type: 'basic', username: '{{user}}', password: '{{env.DEPLOY_PASSWORD}}' } }]);
    f.p.write('api.http', `GET ${f.echo.url}/anything\n`);
    const result = await f.p.run(['run', 'api.http'], { DEPLOY_PASSWORD: 's3cret-deploy-pw' });
    expect(result.code).toBe(0);
    expect(receivedCredentials()).toBe('deploy:s3cret-deploy-pw');
    expectNoSecrets(result, ['s3cret-deploy-pw']);
  });

  test('written out: Authorization: Basic {{basicAuth}} with a shell variable doing the base64', async () => {
    f.p.profiles([
      {
        name: 'dev',
        variables: { username: 'alice', password: "it's a secret", basicAuth: "$(printf '%s:%s' {{username}} {{password}} | base64 | tr -d '\\n')" },
      },
    ]);
    f.p.write('api.http', `GET ${f.echo.url}/anything\nAuthorization: Basic {{basicAuth}}\n`);
    const result = await f.p.run(['run', 'api.http', '-v', '--trust']);
    expect(result.code).toBe(0);
    expect(receivedCredentials()).toBe("alice:it's a secret");
    expectNoSecrets(result, ["it's a secret"]);
  });

  test('a missing password is exit 3 with a hint; a username with ":" is exit 3', async () => {
    f.p.write('api.http', `### b\n# @auth basic\nGET ${f.echo.url}/anything\n`);
    expectCleanFailure(await f.p.run(['run', 'api.http', '-e', 'username=bob']), {
      code: 3,
      message: /request "b" uses basic auth but "password" is not set/,
      hint: /-e password=\.\.\..*"variables" of profile "default".*interactive/,
    });
    expectCleanFailure(await f.p.run(['run', 'api.http', '-e', 'username=a:b', '-e', 'password=pw-hidden-1']), { code: 3, message: /username of request "b" contains ":"/ });
  });
});
