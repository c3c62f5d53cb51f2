/**
 * Sessions (tokens, cookies, OAuth state) belong to a project and a profile, never to a profile
 * name alone: a login in one folder is never sent to another project's server.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';
import { sessionFileFor } from './helpers/session-file.js';

/** A login server: POST /login answers a token and sets a cookie; everything else is recorded. */
async function loginServer(token: string): Promise<Recorder> {
  return startRecorder((req, res) => {
    if (req.url === '/login') {
      res.setHeader('Set-Cookie', `sid=${token}-cookie; Path=/`);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ token }));
      return;
    }
    res.end('ok');
  });
}

let a: Recorder;
let b: Recorder;
const tmp = tempDir('reqflow-projects-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
// Every run has a current folder inside the temporary tree: the repository's own .profiles.json
// (found in the current folder when none is above the request file) would make it one project.

beforeAll(async () => {
  [a, b] = await Promise.all([loginServer('tok-project-a'), loginServer('tok-project-b')]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
  tmp.cleanup();
});

const requests = (base: string): string => `### login\nPOST ${base}/login\n\n### me\nGET ${base}/me\nAuthorization: Bearer {{token}}\n`;

describe('two unrelated folders, no profiles file (both profile "default")', () => {
  test("a login in one is never sent to the other's server: neither its token nor its cookie", async () => {
    const fileA = tmp.write('alpha/api.http', requests(a.url));
    const fileB = tmp.write('beta/api.http', requests(b.url));
    expect((await runCli(['run', fileA, '-n', 'login'], { env, cwd: join(tmp.dir, 'alpha') })).code).toBe(0);
    const me = await runCli(['run', fileA, '-n', 'me'], { env, cwd: join(tmp.dir, 'alpha') });
    expect(me.code).toBe(0);
    expect(a.received.at(-1)?.headers.authorization).toBe('Bearer tok-project-a');
    expect(a.received.at(-1)?.headers.cookie).toBe('sid=tok-project-a-cookie');

    // The other project has logged in nowhere: its {{token}} is unknown, and nothing is sent.
    const other = await runCli(['run', fileB, '-n', 'me'], { env, cwd: join(tmp.dir, 'beta') });
    expect(other.code).toBe(3);
    expect(other.stderr).toMatch(/unknown variable "token"/);
    expect(b.received).toEqual([]);
    // Same server port aside, cookies are per host: b must not get a's cookie either.
    const plain = tmp.write('beta/plain.http', `GET ${b.url}/plain\n`);
    expect((await runCli(['run', plain], { env, cwd: join(tmp.dir, 'beta') })).code).toBe(0);
    expect(b.received.at(-1)?.headers.cookie).toBeUndefined();

    // Its own login works, and does not replace the first project's token.
    expect((await runCli(['run', fileB], { env, cwd: tmp.dir })).code).toBe(0);
    expect(b.received.at(-1)?.headers.authorization).toBe('Bearer tok-project-b');
    expect((await runCli(['run', fileA, '-n', 'me'], { env, cwd: tmp.dir })).code).toBe(0);
    expect(a.received.at(-1)?.headers.authorization).toBe('Bearer tok-project-a');
  });

  test('the folders of one project (a marker at its root) share its session, whatever the current folder', async () => {
    tmp.write('gamma/http-client.env.json', '{}');
    const login = tmp.write('gamma/auth/login.http', `POST ${a.url}/login\n`);
    const me = tmp.write('gamma/users/me.http', `GET ${a.url}/me\nAuthorization: Bearer {{token}}\n`);
    expect((await runCli(['run', login], { env, cwd: tmp.dir })).code).toBe(0);
    const result = await runCli(['run', me], { env, cwd: join(tmp.dir, 'gamma', 'users') });
    expect(result.code).toBe(0);
    expect(a.received.at(-1)?.headers.authorization).toBe('Bearer tok-project-a');
    expect(readFileSync(sessionFileFor(env.REQFLOW_STATE_DIR, join(tmp.dir, 'gamma')), 'utf8')).toContain('tok-project-a');
  });

  test("another repository's file run from a project with profiles is that repository's, not the current folder's", async () => {
    // Project A: a profiles file in the current folder, and a login. Project B: its own repository, no profiles.
    tmp.write('delta/.profiles.json', JSON.stringify([{ name: 'default', variables: { x: '1' } }]));
    mkdirSync(join(tmp.dir, 'epsilon', '.git'), { recursive: true });
    const login = tmp.write('delta/login.http', `POST ${a.url}/login
`);
    const other = tmp.write('epsilon/me.http', `GET ${b.url}/me
Authorization: Bearer {{token}}
`);
    const cwd = join(tmp.dir, 'delta');
    expect((await runCli(['run', login], { env, cwd })).code).toBe(0);
    const before = b.received.length;
    for (const target of [other, '../epsilon/me.http']) {
      const result = await runCli(['run', target], { env, cwd });
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(/unknown variable "token"/);
    }
    expect(b.received.length).toBe(before);
    // Project A's own files still use its profiles from any of its folders; a loose file (no project of its own) does too.
    const loose = tmp.write('zeta-loose/me.http', `GET ${a.url}/me
Authorization: Bearer {{token}}
`);
    const fromA = await runCli(['run', loose], { env, cwd });
    expect(fromA.code).toBe(0);
    expect(a.received.at(-1)?.headers.authorization).toBe('Bearer tok-project-a');
  });
});

describe('repositories nested, linked or beside a profiles folder', () => {
  const login = (base: string): string => `### login\nPOST ${base}/login\n`;
  const me = (base: string): string => `### me\nGET ${base}/me\nAuthorization: Bearer {{token}}\n`;
  /** `args` run from `cwd` find no `{{token}}` (exit 3), and b's server hears nothing. */
  const refusedWithoutToken = async (args: string[], cwd: string, runEnv: NodeJS.ProcessEnv = env): Promise<void> => {
    const before = b.received.length;
    const sent = await runCli(args, { env: runEnv, cwd });
    expect(sent.code).toBe(3);
    expect(sent.stderr).toMatch(/unknown variable "token"/);
    expect(b.received.length).toBe(before);
  };

  test("a repository of its own below a profiles file's folder is its own project: the outer login is not sent to it, nor its trust given", async () => {
    tmp.write('outer/.profiles.json', JSON.stringify([{ name: 'dev', variables: {} }]));
    mkdirSync(join(tmp.dir, 'outer', '.git'), { recursive: true });
    tmp.write('outer/login.http', login(a.url));
    mkdirSync(join(tmp.dir, 'outer', 'vendor', 'c', '.git'), { recursive: true });
    tmp.write('outer/vendor/c/me.http', me(b.url));
    tmp.write('outer/vendor/c/cmd.http', `# @auth command argv=["printf","CMD-RAN"]\nGET ${b.url}/cmd\n`);
    const outer = join(tmp.dir, 'outer');
    const config = { ...env, REQFLOW_CONFIG_DIR: join(tmp.dir, 'config-nested') };
    expect((await runCli(['run', 'login.http'], { env: config, cwd: outer })).code).toBe(0);
    expect((await runCli(['trust'], { env: config, cwd: outer })).code).toBe(0);
    const before = b.received.length;
    for (const cwd of [outer, join(outer, 'vendor', 'c')]) {
      await refusedWithoutToken(['run', join(outer, 'vendor', 'c', 'me.http')], cwd, config);
      const command = await runCli(['run', join(outer, 'vendor', 'c', 'cmd.http')], { env: config, cwd });
      expect(command.code).toBe(2);
      expect(command.stderr).toContain('runs a program');
    }
    expect(b.received.length).toBe(before);
  });

  test("a file of the repository a nested one sits in, run from the nested one, is not the nested one's", async () => {
    mkdirSync(join(tmp.dir, 'host', '.git'), { recursive: true });
    tmp.write('host/me.http', me(b.url));
    mkdirSync(join(tmp.dir, 'host', 'inner', '.git'), { recursive: true });
    tmp.write('host/inner/.profiles.json', JSON.stringify([{ name: 'dev', variables: {} }]));
    tmp.write('host/inner/login.http', login(a.url));
    const inner = join(tmp.dir, 'host', 'inner');
    expect((await runCli(['run', 'login.http'], { env, cwd: inner })).code).toBe(0);
    await refusedWithoutToken(['run', '../me.http'], inner);
  });

  test("a link inside a project to another repository runs that repository's files as its own", async () => {
    tmp.write('linking/.profiles.json', JSON.stringify([{ name: 'dev', variables: {} }]));
    mkdirSync(join(tmp.dir, 'linking', '.git'), { recursive: true });
    tmp.write('linking/login.http', login(a.url));
    mkdirSync(join(tmp.dir, 'linked-repo', '.git'), { recursive: true });
    tmp.write('linked-repo/me.http', me(b.url));
    symlinkSync(join(tmp.dir, 'linked-repo'), join(tmp.dir, 'linking', 'linked'));
    const linking = join(tmp.dir, 'linking');
    expect((await runCli(['run', 'login.http'], { env, cwd: linking })).code).toBe(0);
    await refusedWithoutToken(['run', 'linked/me.http'], linking);
  });

  test('a project reached through a link (no repository) finds the profiles file beside the link', async () => {
    tmp.write('linkhome/.profiles.json', JSON.stringify([{ name: 'dev', variables: {}, headers: { 'X-Profile': 'beside-the-link' } }]));
    tmp.write('linkreal/proj/req.http', `GET ${b.url}/beside\n`);
    symlinkSync(join(tmp.dir, 'linkreal', 'proj'), join(tmp.dir, 'linkhome', 'proj'));
    const sent = await runCli(['run', join(tmp.dir, 'linkhome', 'proj', 'req.http'), '-p', 'dev'], { env, cwd: join(tmp.dir, 'linkhome') });
    expect(sent.code).toBe(0);
    expect(b.received.at(-1)?.headers['x-profile']).toBe('beside-the-link');
  });

  test("a request file that is a link to another repository's file is that repository's", async () => {
    mkdirSync(join(tmp.dir, 'filelink', '.git'), { recursive: true });
    tmp.write('filelink/login.http', login(a.url));
    mkdirSync(join(tmp.dir, 'filelink-target', '.git'), { recursive: true });
    tmp.write('filelink-target/me.http', me(b.url));
    symlinkSync(join(tmp.dir, 'filelink-target', 'me.http'), join(tmp.dir, 'filelink', 'q.http'));
    const here = join(tmp.dir, 'filelink');
    expect((await runCli(['run', 'login.http'], { env, cwd: here })).code).toBe(0);
    await refusedWithoutToken(['run', 'q.http'], here);
  });

  test("a Mercurial repository's environment files do not reach a repository nested in it", async () => {
    mkdirSync(join(tmp.dir, 'hg-outer', '.hg'), { recursive: true });
    tmp.write('hg-outer/http-client.private.env.json', JSON.stringify({ $shared: { token: 'hg-outer-secret' } }));
    mkdirSync(join(tmp.dir, 'hg-outer', 'child', '.hg'), { recursive: true });
    tmp.write('hg-outer/child/me.http', me(b.url));
    const before = b.received.length;
    const sent = await runCli(['run', 'me.http'], { env, cwd: join(tmp.dir, 'hg-outer', 'child') });
    expect(sent.code).toBe(3);
    expect(b.received.length).toBe(before);
  });
});

describe('sessions kept before they belonged to a project', () => {
  const legacy = (state: string, profile: string): string => join(state, 'sessions', `${profile}.json`);
  const seed = (state: string, profile: string, token: string): void => {
    mkdirSync(join(state, 'sessions'), { recursive: true });
    writeFileSync(legacy(state, profile), JSON.stringify({ version: 1, variables: { token }, data: {} }), { mode: 0o600 });
  };

  test("never adopted by a project (it may hold any project's login): moved aside once, saying so, and its token sent to no server", async () => {
    const state = join(tmp.dir, 'state-legacy');
    // Last written by project epsilon's login (both projects had a "dev" profile): delta must not send it.
    seed(state, 'dev', 'tok-legacy-dev');
    tmp.write('delta/.profiles.json', JSON.stringify([{ name: 'dev' }]));
    const file = tmp.write('delta/me.http', `GET ${a.url}/me\nAuthorization: Bearer {{token}}\n`);
    const before = a.received.length;
    const first = await runCli(['run', file, '-p', 'dev'], { env: { REQFLOW_STATE_DIR: state }, cwd: tmp.dir });
    expect(first.code).toBe(3);
    expect(first.stderr).toMatch(/^reqflow: warning: the session of profile "dev" that an earlier reqflow kept for every project at once is not used here \(.*delta\): it may hold another project's login; moved it to .*dev\.json\.shared-\d+ — log in again$/m);
    expect(first.stderr).toMatch(/unknown variable "token"/);
    expect(a.received.length).toBe(before);
    expect(existsSync(legacy(state, 'dev'))).toBe(false);
    const aside = readdirSync(join(state, 'sessions')).filter((name) => /^dev\.json\.shared-\d+$/.test(name));
    expect(aside).toHaveLength(1);
    expect(statSync(join(state, 'sessions', aside[0] as string)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(state, 'sessions', aside[0] as string), 'utf8')).toContain('tok-legacy-dev'); // nothing lost
    // Once: the next run says nothing, and another project with a "dev" profile does not get it either.
    const again = await runCli(['run', file, '-p', 'dev'], { env: { REQFLOW_STATE_DIR: state }, cwd: tmp.dir });
    expect(again.stderr).not.toMatch(/warning/);
    tmp.write('epsilon/.profiles.json', JSON.stringify([{ name: 'dev' }]));
    const elsewhere = await runCli(['run', tmp.write('epsilon/me.http', `GET ${b.url}/me\nAuthorization: Bearer {{token}}\n`), '-p', 'dev'], { env: { REQFLOW_STATE_DIR: state }, cwd: tmp.dir });
    expect(elsewhere.code).toBe(3);
    expect([...a.received, ...b.received].some((r) => r.headers.authorization === 'Bearer tok-legacy-dev')).toBe(false);
  });

  test("an implicit default profile's old session is not used either", async () => {
    const state = join(tmp.dir, 'state-legacy-default');
    seed(state, 'default', 'tok-legacy-default');
    const file = tmp.write('zeta/me.http', `GET ${b.url}/me\nAuthorization: Bearer {{token}}\n`);
    const result = await runCli(['run', file], { env: { REQFLOW_STATE_DIR: state }, cwd: tmp.dir });
    expect(result.code).toBe(3);
    expect(existsSync(legacy(state, 'default'))).toBe(false);
    expect(b.received.some((r) => r.headers.authorization === 'Bearer tok-legacy-default')).toBe(false);
  });
});

describe('a token reqflow extracts by itself never shadows one the user defined', () => {
  test('the environment, the file and the profile win over it; with none of them it is used', async () => {
    tmp.write('eta/http-client.env.json', JSON.stringify({ dev: { token: 'tok-from-env' } }));
    const file = tmp.write('eta/api.http', requests(a.url));
    const run = (...args: string[]) => runCli(['run', file, ...args], { env, cwd: join(tmp.dir, 'eta') });
    expect((await run('--env', 'dev')).code).toBe(0);
    expect(a.received.at(-1)?.headers.authorization).toBe('Bearer tok-from-env');
    // No environment: the extracted token is the only one, so it is used (the login flow).
    expect((await run('-n', 'me')).code).toBe(0);
    expect(a.received.at(-1)?.headers.authorization).toBe('Bearer tok-project-a');
    // A profile's token wins too.
    tmp.write('eta/.profiles.json', JSON.stringify([{ name: 'default', variables: { token: 'tok-from-profile' } }]));
    expect((await run('-n', 'me')).code).toBe(0);
    expect(a.received.at(-1)?.headers.authorization).toBe('Bearer tok-from-profile');
  });

  test('a value the user saved on purpose (# @capture with @save) is an ordinary session value again', async () => {
    tmp.write('theta/http-client.env.json', JSON.stringify({ dev: { token: 'tok-from-env' } }));
    const file = tmp.write('theta/api.http', `### login\n# @save\n# @capture token = $.token\nPOST ${a.url}/login\n\n### me\nGET ${a.url}/me\nAuthorization: Bearer {{token}}\n`);
    expect((await runCli(['run', file, '-n', 'login'], { env, cwd: join(tmp.dir, 'theta') })).code).toBe(0);
    expect((await runCli(['run', file, '-n', 'me', '--env', 'dev'], { env, cwd: join(tmp.dir, 'theta') })).code).toBe(0);
    expect(a.received.at(-1)?.headers.authorization).toBe('Bearer tok-project-a');
  });
});
