/**
 * Environments of the `.http` tools, picked with --env (docs/environments.md), end to end with
 * the built CLI against a recording server: what was actually sent. JetBrains' public and
 * private env files found above the request file, $shared, VS Code's settings.json (JSONC,
 * {{$shared x}}), httpyac's NAME.env over .env; precedence against -e, file variables, the
 * session and the profile; private values masked; the exit-2 errors.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { loadSession } from '../src/core/session.js';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let recorder: Recorder;
let url = '';
const tmp = tempDir('reqflow-envs-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
const PRIVATE = 'acct-7f3e9q-private';

beforeAll(async () => {
  recorder = await startRecorder();
  url = recorder.url;
  // Above the project root: never read.
  tmp.write('http-client.env.json', JSON.stringify({ dev: { outside: 'read-from-above-the-root' } }));
  // A project: the env files at its root, the request file two folders down.
  tmp.write('jb/package.json', '{}');
  tmp.write(
    'jb/http-client.env.json',
    JSON.stringify({
      $schema: 'https://example.invalid/http-client.env.schema.json',
      $shared: { host: url, team: 'shared-team', region: 'eu' },
      dev: { stage: 'dev', team: 'dev-team', port: 8080, debug: true, SSLConfiguration: { clientCertificate: 'dev.pem', verifyHostCertificate: false } },
      prod: { stage: 'prod' },
    }),
  );
  tmp.write('jb/http-client.private.env.json', JSON.stringify({ dev: { account: PRIVATE, stage: 'dev-private' }, prod: { account: 'prod-account-0042' } }));
  tmp.write('jb/api/users/get.http', 'GET {{host}}/users?stage={{stage}}&region={{region}}&port={{port}}&debug={{debug}}&who={{account}}\nX-Team: {{team}}\nX-Account: {{account}}\n');
  tmp.write('jb/api/users/outside.http', 'GET {{host}}/outside?v={{outside}}\n');
  tmp.write('jb/api/users/shared.http', 'GET {{host}}/shared?team={{team}}\n');
  tmp.write('jb/api/users/stage.http', 'GET {{host}}/stage?stage={{stage}}\n');
  // VS Code: JSONC, {{$shared x}} and a value that names another variable.
  tmp.write('vs/.git/HEAD', 'ref: refs/heads/main\n');
  tmp.write(
    'vs/.vscode/settings.json',
    `{
  // REST Client environments
  "editor.tabSize": 2,
  "rest-client.environmentVariables": {
    "$shared": { "version": "v2", /* shared */ "prodToken": "shared-prod-token", },
    "local": {
      "host": "${url}",
      "base": "{{host}}/{{$shared version}}",
      "token": "{{$shared prodToken}}",
    },
  },
}
`,
  );
  tmp.write('vs/requests/req.http', 'GET {{base}}/things\nX-Token: {{token}}\n');
  // httpyac: .env is the base of NAME.env, which .env.NAME overrides; nearer files win.
  tmp.write('yac/package.json', '{}');
  tmp.write('yac/.env', `base=${url}\nlabel=from-dotenv-base\nkind=base\n`);
  tmp.write('yac/staging.env', 'label="from staging"\nkind=staging-env\n');
  tmp.write('yac/sub/.env.staging', 'kind=dot-env-staging # a comment\n');
  tmp.write('yac/sub/req.http', 'GET {{base}}/yac?label={{%label}}&kind={{kind}}\n');
  // Precedence: a profile, an environment, a file variable, the session, -e.
  tmp.write('prec/package.json', '{}');
  tmp.write('prec/.profiles.json', JSON.stringify([{ name: 'prec', variables: { host: 'http://127.0.0.1:9', a: 'profile', b: 'profile', c: 'profile', d: 'profile', e: 'profile' } }]));
  tmp.write('prec/http-client.env.json', JSON.stringify({ dev: { host: url, a: 'env', b: 'env', c: 'env', d: 'env' } }));
  tmp.write('prec/req.http', '@c = file\nGET {{host}}/prec?a={{a}}&b={{b}}&c={{c}}&d={{d}}&e={{e}}\n');
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

async function send(file: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  const before = recorder.received.length;
  const result = await runCli(['run', join(tmp.dir, file), ...args], { env: { ...env, ...extraEnv } });
  return { ...result, got: recorder.received.slice(before) };
}

describe('JetBrains http-client.env.json', () => {
  test('found above the request file; $shared under the environment; private over public; numbers and booleans as text', async () => {
    const { code, got, stderr } = await send('jb/api/users/get.http', ['--env', 'dev']);
    expect(code).toBe(0);
    expect(got[0]?.url).toBe(`/users?stage=dev-private&region=eu&port=8080&debug=true&who=${PRIVATE}`);
    expect(got[0]?.headers['x-team']).toBe('dev-team');
    expect(got[0]?.headers['x-account']).toBe(PRIVATE);
    // SSLConfiguration is a setting, not a variable: skipped with a note.
    expect(stderr).toMatch(/http-client\.env\.json: dev\.SSLConfiguration is a JetBrains setting, not a variable: ignored/);
  });

  test('REQFLOW_ENV picks the environment; --env wins over it', async () => {
    const picked = await send('jb/api/users/stage.http', [], { REQFLOW_ENV: 'prod' });
    expect(picked.code).toBe(0);
    expect(picked.got[0]?.url).toBe('/stage?stage=prod');
    const flag = await send('jb/api/users/stage.http', ['--env', 'dev'], { REQFLOW_ENV: 'prod' });
    expect(flag.got[0]?.url).toBe('/stage?stage=dev-private');
  });

  test('without --env only the $shared values apply', async () => {
    const shared = await send('jb/api/users/shared.http', []);
    expect(shared.code).toBe(0);
    expect(shared.got[0]?.url).toBe('/shared?team=shared-team');
    const own = await send('jb/api/users/stage.http', []);
    expect(own.code).toBe(3); // stage is dev's and prod's, not $shared's
    expect(own.stderr).toMatch(/unknown variable "stage"/);
    expect(own.got).toEqual([]);
  });

  test("the root's env/ folder is read too, as the farthest of all", async () => {
    tmp.write('envdir/.git/HEAD', 'ref: x\n');
    tmp.write('envdir/env/http-client.env.json', JSON.stringify({ dev: { host: url, where: 'env-folder', only: 'env-folder' } }));
    tmp.write('envdir/http-client.env.json', JSON.stringify({ dev: { where: 'root' } }));
    tmp.write('envdir/r.http', 'GET {{host}}/envdir?where={{where}}&only={{only}}\n');
    const { code, got } = await send('envdir/r.http', ['--env', 'dev']);
    expect(code).toBe(0);
    expect(got[0]?.url).toBe('/envdir?where=root&only=env-folder');
  });

  test('files above the project root are not read', async () => {
    const result = await send('jb/api/users/outside.http', ['--env', 'dev']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/unknown variable "outside"/);
    expect(result.got).toEqual([]);
  });

  test('a private value is masked in -v output, even under a harmless header name and in the URL', async () => {
    const result = await send('jb/api/users/get.http', ['--env', 'dev', '-v']);
    expect(result.code).toBe(0);
    expect(result.got[0]?.headers['x-account']).toBe(PRIVATE); // sent as it is
    expect(result.stderr + result.stdout).not.toContain(PRIVATE);
    expect(result.stderr).toMatch(/X-Account: •••/);
    expect(result.stderr).toMatch(/who=•••/);
    // Values of the private file's other environments are registered too.
    const prod = await send('jb/api/users/get.http', ['--env', 'prod', '-v', '-e', 'port=1', '-e', 'debug=no', '-e', 'team=x']);
    expect(prod.code).toBe(0);
    expect(prod.stderr + prod.stdout).not.toContain('prod-account-0042');
  });

  test('an environment no file defines is exit 2 listing those found and their files; nothing is sent', async () => {
    const result = await send('jb/api/users/get.http', ['--env', 'qa']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^reqflow: no environment "qa" in the environment files from .*jb\/api\/users up to the project root .*jb$/m);
    expect(result.stderr).toMatch(/^hint: environments found: dev \(http-client\.env\.json, http-client\.private\.env\.json\), prod \(http-client\.env\.json, http-client\.private\.env\.json\)$/m);
    expect(result.got).toEqual([]);
  });
});

describe('VS Code .vscode/settings.json', () => {
  test('comments and trailing commas, {{$shared x}}, a value naming another variable', async () => {
    const { code, got } = await send('vs/requests/req.http', ['--env', 'local']);
    expect(code).toBe(0);
    expect(got[0]?.url).toBe('/v2/things');
    expect(got[0]?.headers['x-token']).toBe('shared-prod-token');
  });

  test('{{$shared x}} naming no $shared value refuses only the requests that use it: exit 2 naming the request, the value and the file; the others are sent', async () => {
    tmp.write('vs2/.git/HEAD', 'ref: x\n');
    const settings = { 'rest-client.environmentVariables': { $shared: { host: url, via: 'v-{{$shared nope}}' }, local: { token: '{{$shared nope}}', deep: '{{$shared via}}' } } };
    tmp.write('vs2/.vscode/settings.json', JSON.stringify(settings));
    tmp.write('vs2/r.http', '### plain\nGET {{host}}/plain\n\n### auth\nGET {{host}}/auth\nX-Token: {{token}}\n\n### deep\nGET {{host}}/deep?d={{deep}}\n\n### after\nGET {{host}}/after\n');
    const settingsPath = join(tmp.dir, 'vs2/.vscode/settings.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const result = await send('vs2/r.http', ['--env', 'local']);
    expect(result.code).toBe(2);
    // VS Code REST Client sends the text "undefined" there; reqflow sends nothing of those two requests, and the others as written.
    expect(result.got.map((r) => r.url)).toEqual(['/plain', '/after']);
    expect(result.stderr).toMatch(new RegExp(`^reqflow: \\S*r\\.http:5: \\{\\{token\\}\\} in request "auth" is \\{\\{\\$shared nope\\}\\}, a name \\$shared does not have \\(local\\.token in ${settingsPath}\\)$`, 'm'));
    expect(result.stderr).toMatch(new RegExp(`^reqflow: \\S*r\\.http:9: \\{\\{deep\\}\\} in request "deep" is \\{\\{\\$shared nope\\}\\} \\(through \\$shared via\\), a name \\$shared does not have \\(local\\.deep in ${settingsPath}\\)$`, 'm'));
    expect(result.stderr).toContain('hint: $shared has: host, via');
    expect(result.stderr).not.toContain('undefined');
  });

  test('$shared values may name each other with {{$shared x}}; one that comes back to itself is exit 3 naming the cycle and the file', async () => {
    tmp.write('vs3/.git/HEAD', 'ref: x\n');
    const settings = {
      'rest-client.environmentVariables': {
        $shared: { host: url, path: '{{$shared root}}/v3', root: 'api', self: '{{$shared self}}', ping: 'p-{{$shared pong}}', pong: '{{$shared ping}}' },
        local: { where: '{{$shared path}}', loop: '{{$shared ping}}' },
      },
    };
    tmp.write('vs3/.vscode/settings.json', JSON.stringify(settings));
    tmp.write('vs3/ok.http', 'GET {{host}}/{{where}}/{{path}}\n');
    const ok = await send('vs3/ok.http', ['--env', 'local']);
    expect(ok.code).toBe(0);
    expect(ok.got[0]?.url).toBe('/api/v3/api/v3');
    const settingsPath = join(tmp.dir, 'vs3/.vscode/settings.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // A $shared value naming itself, with --env and without: a cycle, never "unknown system variable".
    for (const args of [['--env', 'local'], []]) {
      tmp.write('vs3/self.http', 'GET {{host}}/{{self}}\n');
      const self = await send('vs3/self.http', args);
      expect(self.code).toBe(3);
      expect(self.got).toEqual([]);
      expect(self.stderr).toMatch(new RegExp(`^reqflow: \\S*self\\.http:1: \\{\\{self\\}\\} in request "request-1" is a variable cycle: \\$shared self → \\$shared self \\(\\$shared\\.self in ${settingsPath}\\)$`, 'm'));
      expect(self.stderr).not.toContain('system variable');
    }
    // Through another, reached from the environment's own value.
    tmp.write('vs3/loop.http', 'GET {{host}}/{{loop}}\n');
    const loop = await send('vs3/loop.http', ['--env', 'local']);
    expect(loop.code).toBe(3);
    expect(loop.stderr).toMatch(new RegExp(`is a variable cycle: local\\.loop → \\$shared ping → \\$shared pong → \\$shared ping \\(local\\.loop in ${settingsPath}\\)$`, 'm'));
    expect(loop.stderr).toContain('hint: a variable cannot refer to itself, directly or through others');
  });
});

describe('httpyac dotenv environments', () => {
  test('NAME.env over .env, .env.NAME over NAME.env, the nearer file winning', async () => {
    const { code, got } = await send('yac/sub/req.http', ['--env', 'staging']);
    expect(code).toBe(0);
    expect(got[0]?.url).toBe('/yac?label=from%20staging&kind=dot-env-staging');
  });

  test('a quoted value followed by a # comment is the text between its quotes, a # inside them kept (the quotes were sent, and a value cut at the #)', async () => {
    tmp.write('quoted/package.json', '{}');
    tmp.write('quoted/.env', `base=${url}\nQ="a b" # c\nR="x # y" # z\nS='p' # q\nT=plain # note\nW='C:\\dir\\'\n`);
    tmp.write('quoted/req.http', 'GET {{base}}/quoted\nX-Q: [{{Q}}]\nX-R: [{{R}}]\nX-S: [{{S}}]\nX-T: [{{T}}]\nX-W: [{{W}}]\n');
    const { code, got } = await send('quoted/req.http', []);
    expect(code).toBe(0);
    expect(['x-q', 'x-r', 'x-s', 'x-t', 'x-w'].map((name) => got[0]?.headers[name])).toEqual(['[a b]', '[x # y]', '[p]', '[plain]', '[C:\\dir\\]']);
  });

  test('.env alone is no environment, but its values are variables below every other source (kulala, rest.nvim)', async () => {
    const result = await send('yac/sub/req.http', []);
    expect(result.code).toBe(0);
    expect(result.got[0]?.url).toBe('/yac?label=from-dotenv-base&kind=base');
    const unknown = await send('yac/sub/req.http', ['--env', 'qa']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^hint: environments found: staging \(staging\.env, sub\/\.env\.staging\)$/m);
  });

  test("with --env NAME too, a project's .env never changes a value the profile defines; NAME.env's own values do", async () => {
    tmp.write('yacprof/package.json', '{}');
    tmp.write('yacprof/.profiles.json', JSON.stringify([{ name: 'default', variables: { prof: 'from-profile', both: 'from-profile' } }]));
    tmp.write('yacprof/.env', `base=${recorder.url}\nprof=from-dotenv\nboth=from-dotenv\n`);
    tmp.write('yacprof/staging.env', 'both=from-staging\n');
    tmp.write('yacprof/req.http', 'GET {{base}}/yacprof?prof={{prof}}&both={{both}}\n');
    for (const args of [['--env', 'staging'], []]) {
      const { code, got } = await send('yacprof/req.http', args);
      expect(code).toBe(0);
      expect(got[0]?.url).toBe(`/yacprof?prof=from-profile&both=${args.length > 0 ? 'from-staging' : 'from-profile'}`);
    }
  });
});

describe('precedence: -e > file variables > session > environment > profile', () => {
  test('each source wins over the ones below it', async () => {
    const session = await loadSession('prec', { env, project: join(tmp.dir, 'prec') }); // the profile's session in its project
    session.set('b', 'session');
    session.set('c', 'session');
    await session.save();
    const { code, got } = await send('prec/req.http', ['--env', 'dev', '-e', 'a=cli']);
    expect(code).toBe(0);
    // a: -e over all; b: session over environment; c: file variable over session; d: environment over profile; e: profile.
    expect(got[0]?.url).toBe('/prec?a=cli&b=session&c=file&d=env&e=profile');
  });
});

describe('refused files', () => {
  test('a file that is not valid JSON is exit 2 naming the file, line and column; nothing is sent', async () => {
    tmp.write('broken/package.json', '{}');
    tmp.write('broken/http-client.env.json', '{\n  "dev": { "a": 1,, }\n}\n');
    tmp.write('broken/r.http', 'GET http://127.0.0.1:1/\n');
    const result = await send('broken/r.http', ['--env', 'dev']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/broken\/http-client\.env\.json:2:19: not valid JSON with comments \(PropertyNameExpected\)/);
  });

  test('a nested object that is not a known JetBrains setting, used whole, is exit 2 naming it (environments-values.test.ts has more)', async () => {
    tmp.write('nested/package.json', '{}');
    tmp.write('nested/http-client.env.json', JSON.stringify({ dev: { user: { name: 'x' } } }));
    tmp.write('nested/r.http', 'GET http://127.0.0.1:1/?u={{user}}\n');
    const result = await send('nested/r.http', ['--env', 'dev']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/r\.http:1: \{\{user\}\} in request "request-1" is an object \(dev\.user in \S*http-client\.env\.json\)/);
  });

  test('--env that is a path is refused', async () => {
    const result = await send('jb/api/users/get.http', ['--env', '../dev']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--env "\.\.\/dev" is not an environment name/);
  });
});

describe('reqflow test over a tree where only some folders have environment files', () => {
  test('each file gets its own environment; a file with no environment file runs without one, said once', async () => {
    tmp.write('tree/package.json', '{}');
    tmp.write('tree/api/http-client.env.json', JSON.stringify({ dev: { host: url } }));
    tmp.write('tree/api/users.http', 'GET {{host}}/tree/users\n');
    tmp.write('tree/health/ping.http', `GET ${url}/tree/ping\n`);
    tmp.write('tree/health/pong.http', `GET ${url}/tree/pong\n`);
    const before = recorder.received.length;
    const result = await runCli(['test', '.', '--env', 'dev'], { env, cwd: join(tmp.dir, 'tree') });
    expect(result.code).toBe(0);
    expect(recorder.received.slice(before).map((r) => r.url).sort()).toEqual(['/tree/ping', '/tree/pong', '/tree/users']);
    expect(result.stderr.match(/^reqflow: note: .*$/gm)).toEqual(['reqflow: note: 2 files have no environment file and ran without --env dev: health/ping.http, health/pong.http']);

    // A file whose environment files define other environments only is still an error.
    tmp.write('tree/other/http-client.env.json', JSON.stringify({ prod: { host: url } }));
    tmp.write('tree/other/x.http', 'GET {{host}}/tree/x\n');
    const mixed = await runCli(['test', '.', '--env', 'dev'], { env, cwd: join(tmp.dir, 'tree') });
    expect(mixed.code).toBe(2);
    expect(mixed.stdout + mixed.stderr).toMatch(/no environment "dev" in the environment files/);
  });
});
