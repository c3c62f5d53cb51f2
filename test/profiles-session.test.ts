import { describe, expect, test } from '@jest/globals';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { homedir } from 'node:os';
import { configDir } from '../src/core/config-dir.js';
import { findProfilesFile, parseProfiles, resolveProfile, selectProfile } from '../src/core/profiles.js';
import { loadSession, sessionPath } from '../src/core/session.js';
import { extractToken } from '../src/core/token-extraction.js';
import { thrownBy } from './helpers/expect-error.js';
import { runCli, tempDir } from './helpers/cli.js';


describe('profiles', () => {
  test('found in the request file folder or its parents, else the current folder', async () => {
    const tmp = tempDir();
    try {
      const top = tmp.write('.profiles.json', '[]');
      mkdirSync(join(tmp.dir, 'a', 'b'), { recursive: true });
      expect(await findProfilesFile(join(tmp.dir, 'a', 'b'), '/')).toBe(top);
      const near = tmp.write('a/.profiles.json', '[]');
      expect(await findProfilesFile(join(tmp.dir, 'a', 'b'), '/')).toBe(near);
      const other = tempDir();
      const cwdFile = other.write('.profiles.json', '[]');
      expect(await findProfilesFile('/', other.dir)).toBe(cwdFile);
      other.cleanup();
    } finally {
      tmp.cleanup();
    }
  });

  test('selection: -p, then REQFLOW_PROFILE, then "default", then the first', () => {
    const doc = { path: 'p.json', profiles: parseProfiles('{"profiles": [{"name": "a"}, {"name": "default"}, {"name": "c"}]}', 'p.json') };
    expect(selectProfile(doc, 'c', {}).name).toBe('c');
    expect(selectProfile(doc, undefined, { REQFLOW_PROFILE: 'a' }).name).toBe('a');
    expect(selectProfile(doc, undefined, {}).name).toBe('default');
    const noDefault = { profiles: parseProfiles('[{"name": "x"}, {"name": "y"}]', 'p.json') };
    expect(selectProfile(noDefault, undefined, {}).name).toBe('x');
    expect(selectProfile({ profiles: [] }, undefined, {}, '/tmp')).toMatchObject({ name: 'default', variables: {}, headers: {} });
    const unknown = thrownBy(() => selectProfile(doc, 'prod', {}));
    expect([unknown.exitCode, unknown.message, unknown.hint]).toEqual([2, 'unknown profile "prod" in p.json', 'available profiles: a, default, c']);
  });

  test('validation names the field (exit 2)', () => {
    const cases: Array<[string, RegExp]> = [
      ['not json', /p\.json: not valid JSON/],
      ['{"x": 1}', /expected an array of profiles/],
      ['[{"variables": {}}]', /profiles\[0\]\.name: expected a non-empty string/],
      ['[{"name": "a", "headers": {"X": 1}}]', /profiles\[0\]\.headers\.X: expected a string/],
      ['[{"name": "a", "variables": {"v": [1]}}]', /profiles\[0\]\.variables\.v: expected a string or/],
      ['[{"name": "a", "tls": {"insecureSkipVerify": "maybe"}}]', /profiles\[0\]\.tls\.insecureSkipVerify: expected true or false/],
      ['[{"name": "a", "oauth": {"clientId": 5}}]', /profiles\[0\]\.oauth\.clientId: expected a string/],
      ['[{"name": "a"}, {"name": "a"}]', /profile name "a" is used more than once/],
    ];
    for (const [text, message] of cases) {
      const error = thrownBy(() => parseProfiles(text, 'p.json'));
      expect(error.exitCode).toBe(2);
      expect(error.message).toMatch(message);
    }
  });

  test('a folder named .profiles.json on the way up is exit 2 naming it, never skipped for another file (or none)', async () => {
    const tmp = tempDir();
    try {
      tmp.write('.profiles.json', '[{"name": "outer"}]');
      mkdirSync(join(tmp.dir, 'project/.profiles.json'), { recursive: true });
      await expect(resolveProfile({ requestDir: join(tmp.dir, 'project'), env: {}, cwd: tmp.dir })).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/cannot read profiles file .*project\/\.profiles\.json: it is a folder, not a file/) });
    } finally {
      tmp.cleanup();
    }
  });

  test('fields that look like a mistyped one (varaibles, oauth.grantType) are said with the name meant; others (restcli\'s editor, x-team) kept quietly', async () => {
    const tmp = tempDir();
    try {
      const path = tmp.write('.profiles.json', JSON.stringify([{ name: 'dev', $schema: 'x', editor: 'vim', 'x-team': {}, varaibles: { a: '1' }, oauth: { clientId: 'c', grantType: 'client_credentials' } }, { name: 'clean', variables: {}, editor: 'vim' }]));
      const { document } = await resolveProfile({ requestDir: tmp.dir, env: {}, cwd: tmp.dir });
      expect(document.unknownFields?.get('dev')).toEqual([`${path}: profiles[0].varaibles: unknown field, ignored (did you mean "variables"?)`, `${path}: profiles[0].oauth.grantType: unknown field, ignored (did you mean "grant"?)`]);
      expect(document.unknownFields?.has('clean')).toBe(false);
      const run = await runCli(['run', tmp.write('a.http', 'GET http://127.0.0.1:9/x\n'), '--dry-run'], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('reqflow: warning: ');
      expect(run.stderr).toContain('profiles[0].varaibles: unknown field, ignored (did you mean "variables"?)');
    } finally {
      tmp.cleanup();
    }
  });

  test('--profiles overrides discovery; a missing file is exit 2', async () => {
    const tmp = tempDir();
    try {
      const path = tmp.write('custom.json', '[{"name": "only", "variables": {"a": "1"}}]');
      const { profile, document } = await resolveProfile({ requestDir: '/', profilesPath: path, env: {} });
      expect([profile.name, profile.variables, document.path, profile.baseDir]).toEqual(['only', { a: '1' }, path, tmp.dir]);
      await expect(resolveProfile({ requestDir: '/', profilesPath: join(tmp.dir, 'missing.json'), env: {} })).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/cannot read profiles file .*missing\.json: no such file/) });
    } finally {
      tmp.cleanup();
    }
  });
});

describe('sessions', () => {
  test('stored under REQFLOW_STATE_DIR, 0600 in a 0700 folder, atomically, one per profile', async () => {
    const tmp = tempDir();
    try {
      const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
      const project = '/work/api';
      const session = await loadSession('dev/eu', { env, project });
      session.set('token', 'abc');
      session.setData('oauth', { expiresAt: 1 });
      await session.save();
      const path = sessionPath('dev/eu', project, env);
      expect(path).toBe(join(tmp.dir, 'state', 'sessions', '%2Fwork%2Fapi', 'dev%2Feu.json'));
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(join(tmp.dir, 'state', 'sessions')).mode & 0o777).toBe(0o700);
      expect(statSync(join(tmp.dir, 'state', 'sessions', '%2Fwork%2Fapi')).mode & 0o777).toBe(0o700);
      expect(readdirSync(join(tmp.dir, 'state', 'sessions', '%2Fwork%2Fapi'))).toEqual(['dev%2Feu.json']);
      const again = await loadSession('dev/eu', { env, project });
      expect([again.get('token'), again.getData('oauth')]).toEqual(['abc', { expiresAt: 1 }]);
      expect((await loadSession('other', { env, project })).get('token')).toBeUndefined();
      // The same profile name in another project is another session.
      expect((await loadSession('dev/eu', { env, project: '/work/other' })).get('token')).toBeUndefined();
    } finally {
      tmp.cleanup();
    }
  });

  test('XDG_STATE_HOME is used when REQFLOW_STATE_DIR is not set', () => {
    expect(sessionPath('default', '/p', { XDG_STATE_HOME: '/x/state' })).toBe('/x/state/reqflow/sessions/%2Fp/default.json');
    // A relative one is invalid (the XDG spec) and ignored: it would put the session in whatever folder the run is in.
    expect(sessionPath('default', '/p', { XDG_STATE_HOME: 'relxdg' })).toBe(join(homedir(), '.local/state/reqflow/sessions/%2Fp/default.json'));
    expect(configDir({ XDG_CONFIG_HOME: 'cfg', HOME: '/home/u' })).toBe('/home/u/.config/reqflow');
  });

  test('a corrupt session file is reported and set aside, not overwritten', async () => {
    const tmp = tempDir();
    try {
      const env = { REQFLOW_STATE_DIR: tmp.dir };
      const path = sessionPath('default', '/p', env);
      mkdirSync(join(tmp.dir, 'sessions', '%2Fp'), { recursive: true });
      writeFileSync(path, '{"variables": {"token": ');
      const warnings: string[] = [];
      const session = await loadSession('default', { env, project: '/p', warn: (m) => warnings.push(m) });
      expect(session.get('token')).toBeUndefined();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/session file of profile "default" was corrupt; moved it to .*\.corrupt-\d+/);
      const aside = readdirSync(join(tmp.dir, 'sessions', '%2Fp')).find((f) => f.includes('.corrupt-'));
      expect(readFileSync(join(tmp.dir, 'sessions', '%2Fp', aside ?? ''), 'utf8')).toBe('{"variables": {"token": ');
    } finally {
      tmp.cleanup();
    }
  });
});

describe('token extraction', () => {
  const extract = (body: string): { field: string | undefined; token: string | undefined } => {
    const values = new Map<string, string>();
    const session = { get: (n: string) => values.get(n), set: (n: string, v: string) => void values.set(n, v) } as unknown as Parameters<typeof extractToken>[1];
    const field = extractToken(Buffer.from(body), session);
    return { field, token: values.get('token') };
  };

  test('takes token, else accessToken, else access_token, from the top level only', () => {
    expect(extract('{"access_token":"c","accessToken":"b","token":"a"}')).toEqual({ field: 'token', token: 'a' });
    expect(extract('{"access_token":"c","accessToken":"b"}')).toEqual({ field: 'accessToken', token: 'b' });
    expect(extract('{"data":{"token":"x"},"access_token":"c"}')).toEqual({ field: 'access_token', token: 'c' });
    expect(extract('{"data":{"token":"x"}}')).toEqual({ field: undefined, token: undefined });
  });

  test('a field name written with escapes still counts; bodies without one are left alone', () => {
    expect(extract('{"acc\\u0065ss_token":"e"}')).toEqual({ field: 'access_token', token: 'e' });
    expect(extract('{"id":1,"name":"no token here"}')).toEqual({ field: undefined, token: undefined });
    expect(extract('{"token":""}')).toEqual({ field: undefined, token: undefined });
    expect(extract('not json "token"')).toEqual({ field: undefined, token: undefined });
  });
});
