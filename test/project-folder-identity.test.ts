/**
 * Per-project state belongs to the project's folder, not only to its path (docs/profiles.md
 * "Sessions", docs/history.md "Where", docs/trust.md): a folder deleted and a different repository
 * created at the same path (`rm -rf api && git clone other api`, a CI workspace used again) gets
 * none of the old folder's session — its token and cookies never reach the new project's server —,
 * history or trust. The old state is moved aside, never deleted, with one warning. The same folder
 * keeps its state through ordinary work (edits, a git checkout, renamed files, a touched folder),
 * in every request format and through run, test and send; state an earlier reqflow wrote, with no
 * folder recorded, is adopted.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { folderIdentity, isEarlierFolder, recordedIdentity } from '../src/core/folder-identity.js';
import { runCli, tempDir, type CliResult } from './helpers/cli.js';
import { historyFileFor } from './helpers/history-file.js';
import { startRecorder, type Recorded, type Recorder } from './helpers/recorder.js';
import { sessionFileFor } from './helpers/session-file.js';
import { needs } from './helpers/system-programs.js';

const tmp = tempDir('reqflow-folder-identity-');
let server: Recorder;

/** POST /login?as=NAME answers the token `tok-NAME` and sets the cookie `sid=ck-NAME`; anything else is recorded and answered `{"ok":true}`. */
beforeAll(async () => {
  server = await startRecorder((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    const login = /^\/login\?as=(.+)$/.exec(req.url ?? '');
    if (login) {
      res.setHeader('Set-Cookie', `sid=ck-${login[1]}; Path=/`);
      res.end(JSON.stringify({ token: `tok-${login[1]}` }));
      return;
    }
    res.end('{"ok":true}');
  });
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

interface Place {
  /** The project's folder (its real path: what reqflow keys its state by). */
  dir: string;
  state: string;
  env: NodeJS.ProcessEnv;
}

/** A state folder, a config folder and a project path of the scenario's own. */
function place(name: string): Place {
  const root = join(tmp.dir, name);
  mkdirSync(join(root, 'work'), { recursive: true });
  const state = join(root, 'state');
  return { dir: join(realpathSync(join(root, 'work')), 'api'), state, env: { REQFLOW_STATE_DIR: state, REQFLOW_CONFIG_DIR: join(root, 'config') } };
}

/** A repository at `dir` (its `.git` marks the project) holding `files`. */
function repository(dir: string, files: Record<string, string>): void {
  mkdirSync(join(dir, '.git'), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}

/** `rm -rf DIR && git clone other DIR`: another repository at the same path. */
function replaceWith(dir: string, files: Record<string, string>): void {
  rmSync(dir, { recursive: true, force: true });
  repository(dir, files);
}

/** Runs reqflow in the project's folder; what the server got during the run beside the result. */
async function inProject(where: Place, args: string[]): Promise<CliResult & { sent: Recorded[] }> {
  const before = server.received.length;
  const result = await runCli(args, { cwd: where.dir, env: where.env });
  return { ...result, sent: server.received.slice(before) };
}

/** Every file under `dir` whose name says it was moved aside for an earlier folder. */
function setAside(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => /\.earlier-\d+$/.test(name));
}

const EARLIER = /earlier folder/;

const meHttp = (): string => `GET ${server.url}/me\nAuthorization: Bearer {{token}}\n`;
const meYaml = (): string => `name: me\nurl: ${server.url}/me\nheaders:\n  Authorization: "Bearer {{token}}"\n`;
const meJson = (): string => JSON.stringify({ name: 'me', url: `${server.url}/me`, headers: { Authorization: 'Bearer {{token}}' } });

describe('the folder identity', () => {
  test('stays through adding, renaming and touching what is inside, and a touch of the folder; a folder made again at the path is another', () => {
    const dir = join(tmp.dir, 'identity', 'p');
    mkdirSync(dir, { recursive: true });
    const first = folderIdentity(dir);
    expect(first).toBeDefined();
    writeFileSync(join(dir, 'a.http'), 'GET http://x/\n');
    renameSync(join(dir, 'a.http'), join(dir, 'b.http'));
    mkdirSync(join(dir, 'sub'));
    utimesSync(dir, new Date(), new Date());
    utimesSync(dir, new Date('2001-01-01'), new Date('2001-01-01'));
    expect(isEarlierFolder(first!, folderIdentity(dir))).toBe(false);
    rmSync(dir, { recursive: true });
    mkdirSync(dir);
    // ext4 gives the new folder the freed inode number again: the birth time tells them apart.
    expect(isEarlierFolder(first!, folderIdentity(dir))).toBe(true);
  });

  test('another inode is another folder; a birth time is compared only where both are known; a folder that cannot be told is never called another', () => {
    expect(isEarlierFolder({ ino: '7', born: '1' }, { ino: '8', born: '1' })).toBe(true);
    expect(isEarlierFolder({ ino: '7', born: '1' }, { ino: '7', born: '2' })).toBe(true);
    expect(isEarlierFolder({ ino: '7', born: '1' }, { ino: '7' })).toBe(false);
    expect(isEarlierFolder({ ino: '7' }, { ino: '7', born: '2' })).toBe(false);
    expect(isEarlierFolder({ ino: '7', born: '1' }, undefined)).toBe(false);
  });

  test('no record is adopted (undefined); a record that is not an identity matches no folder', () => {
    expect(recordedIdentity(undefined)).toBeUndefined();
    for (const bad of [null, 'x', { ino: 7 }, { ino: '7', born: 1 }]) expect(isEarlierFolder(recordedIdentity(bad)!, { ino: '7', born: '1' })).toBe(true);
  });
});

describe('a different repository created at the same path', () => {
  const commands: [string, string, () => string, (file: string) => string[]][] = [
    ['run', 'me.http', meHttp, (file) => ['run', file]],
    ['test', 'me.yaml', meYaml, (file) => ['test', file]],
    ['run', 'me.json', meJson, (file) => ['run', file]],
    ['send', '(arguments)', meHttp, () => ['send', `${server.url}/me`, '-H', 'Authorization: Bearer {{token}}']],
  ];

  test.each(commands)("reqflow %s %s: the earlier folder's token and cookies are not sent, its session is moved aside with one warning", async (_command, file, text, args) => {
    const where = place(`session-${_command}-${file.replace(/\W/g, '')}`);
    repository(where.dir, { 'login.http': `POST ${server.url}/login?as=a\n` });
    expect((await inProject(where, ['run', 'login.http'])).code).toBe(0);
    const session = sessionFileFor(where.state, where.dir);
    expect(JSON.parse(readFileSync(session, 'utf8'))).toMatchObject({ variables: { token: 'tok-a' } });

    replaceWith(where.dir, { [file]: text(), 'plain.http': `GET ${server.url}/plain\n` });
    const b = await inProject(where, args(file));
    expect(b.code).not.toBe(0); // {{token}} is unknown in the new project
    expect(b.sent).toEqual([]);
    const warnings = `${b.stderr}${b.stdout}`.split('\n').filter((line) => EARLIER.test(line));
    expect(warnings).toHaveLength(1);
    const aside = new RegExp(`the session of profile "default" was kept for an earlier folder at ${where.dir} .*moved it to (\\S+\\.earlier-\\d+) `).exec(warnings[0] ?? '')?.[1];
    expect(aside).toBeDefined();
    // Nothing deleted: the earlier folder's session is kept aside, private.
    expect(JSON.parse(readFileSync(aside!, 'utf8'))).toMatchObject({ variables: { token: 'tok-a' } });
    expect(statSync(aside!).mode & 0o777).toBe(0o600);

    // A cookie the earlier folder's login set is not sent either.
    const plain = await inProject(where, ['run', 'plain.http']);
    expect(plain.code).toBe(0);
    expect(plain.sent.map((r) => [r.url, r.headers.cookie, r.headers.authorization])).toEqual([['/plain', undefined, undefined]]);
    expect(plain.stderr).not.toMatch(/the session .*earlier folder/); // said once (this first run that writes a history says that the history's was set aside)
  });

  test('its history is neither shown nor replayed nor added to: moved aside with one warning, by `reqflow history` or by the next run', async () => {
    const where = place('history');
    repository(where.dir, { 'a.http': `GET ${server.url}/a-only\n` });
    expect((await inProject(where, ['run', 'a.http'])).code).toBe(0);
    const listed = await inProject(where, ['history', '--json']);
    const id = (JSON.parse(listed.stdout.trim().split('\n')[0] ?? '{}') as { id?: string }).id;
    expect(id).toMatch(/^[0-9a-f]{12}$/);

    replaceWith(where.dir, { 'b.http': `GET ${server.url}/b-only\n` });
    const show = await inProject(where, ['history', 'show', id!]);
    expect(show.code).toBe(2);
    expect(show.stderr).toMatch(new RegExp(`^reqflow: warning: the history of ${where.dir} was kept for an earlier folder at that path .*\\.earlier-\\d+`, 'm'));
    expect(show.stderr).toMatch(/no history entry/);
    const list = await inProject(where, ['history']);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toMatch(/a-only/);
    expect(list.stderr).not.toMatch(EARLIER); // said once
    expect(await inProject(where, ['run', 'b.http'])).toMatchObject({ code: 0 });
    expect((await inProject(where, ['history'])).stdout).toMatch(/b-only/);
    expect((await inProject(where, ['history'])).stdout).not.toMatch(/a-only/);
    // Nothing deleted: the earlier folder's entries are beside, under another name.
    const history = dirname(historyFileFor(where.state, where.dir));
    expect(setAside(history).some((name) => name.startsWith('default.ndjson.earlier-') && readFileSync(join(history, name), 'utf8').includes('a-only'))).toBe(true);
  });

  test("the next run's history writer sets it aside too, when no `reqflow history` came first", async () => {
    const where = place('history-writer');
    repository(where.dir, { 'a.http': `GET ${server.url}/a-only\n` });
    expect((await inProject(where, ['run', 'a.http'])).code).toBe(0);
    replaceWith(where.dir, { 'b.http': `GET ${server.url}/b-only\n` });
    const b = await inProject(where, ['run', 'b.http']);
    expect(b.code).toBe(0);
    expect(b.stderr.split('\n').filter((line) => EARLIER.test(line))).toHaveLength(1);
    const list = await inProject(where, ['history']);
    expect(list.stdout).toMatch(/b-only/);
    expect(list.stdout).not.toMatch(/a-only/);
  });

  test('its trust does not carry over: `# @auth command` is refused saying why, `trust --list` says so, and trusting again lets it run', async () => {
    const where = place('trust-command');
    repository(where.dir, { 'a.http': `GET ${server.url}/a\n` });
    expect((await inProject(where, ['trust'])).stdout).toBe(`${where.dir}: trusted\n`);

    replaceWith(where.dir, { 'auth.http': `### b\n# @auth command argv=["printf","tok-from-b"]\nGET ${server.url}/auth-b\n` });
    const refused = await inProject(where, ['run', 'auth.http']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/auth\.http:2: # @auth command runs a program; `reqflow trust` this project or pass --trust/);
    expect(refused.stderr).toMatch(new RegExp(`hint: ${where.dir} was trusted as an earlier folder at that path .*reqflow trust it again`));
    expect(refused.sent).toEqual([]);
    expect((await inProject(where, ['trust', '--list'])).stdout).toBe(`${where.dir}  (not trusted: trusted as an earlier folder at that path, deleted and created again since; reqflow trust it again if you trust this one)\n`);

    expect((await inProject(where, ['trust'])).stdout).toBe(`${where.dir}: trusted\n`);
    const trusted = await inProject(where, ['run', 'auth.http']);
    expect(trusted.code).toBe(0);
    expect(trusted.sent.map((r) => [r.url, r.headers.authorization])).toEqual([['/auth-b', 'Bearer tok-from-b']]);
  });

  test("an httpyac script's require is refused, with one warning saying why the trust does not apply", async () => {
    const where = place('trust-require');
    repository(where.dir, { 'a.http': `GET ${server.url}/a\n` });
    expect((await inProject(where, ['trust'])).code).toBe(0);
    replaceWith(where.dir, { 'script.http': `{{\n  exports.who = require('node:path').basename('/x/ada');\n}}\n\nGET ${server.url}/script-b?who={{who}}\n` });
    const refused = await inProject(where, ['run', 'script.http']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/require\("node:path"\) runs a program/);
    expect(refused.stderr.split('\n').filter((line) => /warning: .*was trusted as an earlier folder/.test(line))).toHaveLength(1);
    expect(refused.sent).toEqual([]);
  });
});

describe('the same folder keeps its state', () => {
  const formats: [string, string, (as: string) => string, () => string][] = [
    ['.http', 'http', (as) => `POST ${server.url}/login?as=${as}\n`, meHttp],
    ['YAML', 'yaml', (as) => `name: login\nmethod: POST\nurl: ${server.url}/login?as=${as}\n`, meYaml],
    ['JSON', 'json', (as) => JSON.stringify({ name: 'login', method: 'POST', url: `${server.url}/login?as=${as}` }), meJson],
  ];

  test.each(formats.flatMap(([label, ext, login, me]) => (['run', 'test'] as const).map((command) => [label, command, ext, login, me] as const)))(
    '%s through reqflow %s: a login is kept in the session and sent by the next run, with its cookie',
    async (_label, command, ext, login, me) => {
      const where = place(`same-${ext}-${command}`);
      const as = `${ext}-${command}`;
      repository(where.dir, { [`login.${ext}`]: login(as), [`me.${ext}`]: me() });
      const first = await inProject(where, [command, `login.${ext}`]);
      expect(first.code).toBe(0);
      const second = await inProject(where, [command, `me.${ext}`]);
      expect(second.code).toBe(0);
      expect(second.sent.map((r) => [r.url, r.headers.authorization, r.headers.cookie])).toEqual([['/me', `Bearer tok-${as}`, `sid=ck-${as}`]]);
      expect(`${first.stderr}${second.stderr}`).not.toMatch(EARLIER);
      expect(JSON.parse(readFileSync(sessionFileFor(where.state, where.dir), 'utf8'))).toMatchObject({ folder: { ino: expect.any(String) }, variables: { token: `tok-${as}` } });
    },
  );

  test('reqflow send: a login sent from the folder is used by the next send there', async () => {
    const where = place('same-send');
    repository(where.dir, {});
    expect((await inProject(where, ['send', 'POST', `${server.url}/login?as=send`])).code).toBe(0);
    const me = await inProject(where, ['send', `${server.url}/me`, '-H', 'Authorization: Bearer {{token}}']);
    expect(me.code).toBe(0);
    expect(me.sent.map((r) => [r.headers.authorization, r.headers.cookie])).toEqual([['Bearer tok-send', 'sid=ck-send']]);
    expect(me.stderr).not.toMatch(EARLIER);
  });

  needs(['git'], 'the test that checks a branch out').test('through edits, a git checkout of another branch and back, renamed files and a touched folder: session, history and trust', async () => {
    const where = place('ordinary-work');
    mkdirSync(where.dir, { recursive: true });
    const git = (...args: string[]): void => {
      const done = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd: where.dir, encoding: 'utf8' });
      expect(done.status).toBe(0);
    };
    git('init', '-q');
    writeFileSync(join(where.dir, 'login.http'), `POST ${server.url}/login?as=work\n`);
    writeFileSync(join(where.dir, 'me.http'), meHttp());
    writeFileSync(join(where.dir, 'me.yaml'), meYaml());
    writeFileSync(join(where.dir, 'auth.http'), `# @auth command argv=["printf","tok-cmd"]\nGET ${server.url}/cmd\n`);
    git('add', '.');
    git('commit', '-q', '-m', 'one');
    expect((await inProject(where, ['run', 'login.http'])).code).toBe(0);
    expect((await inProject(where, ['trust'])).code).toBe(0);

    const work: [string, () => void, string][] = [
      ['an edit', () => writeFileSync(join(where.dir, 'me.http'), `# edited\n${meHttp()}`), 'me.http'],
      [
        'a git checkout of another branch and back',
        () => {
          git('checkout', '-q', '-b', 'other');
          writeFileSync(join(where.dir, 'new.http'), `GET ${server.url}/new\n`);
          unlinkSync(join(where.dir, 'me.yaml'));
          git('add', '-A');
          git('commit', '-q', '-m', 'two');
          git('checkout', '-q', 'main');
        },
        'me.yaml',
      ],
      ['a file renamed', () => renameSync(join(where.dir, 'me.yaml'), join(where.dir, 'renamed.yaml')), 'renamed.yaml'],
      ['the folder touched', () => utimesSync(where.dir, new Date('2001-01-01'), new Date('2001-01-01')), 'me.http'],
    ];
    for (const [what, step, file] of work) {
      step();
      const run = await inProject(where, ['run', file]);
      expect([what, run.code, run.stderr.includes('reqflow:')]).toEqual([what, 0, false]);
      expect([what, run.sent.map((r) => [r.url, r.headers.authorization, r.headers.cookie])]).toEqual([what, [['/me', 'Bearer tok-work', 'sid=ck-work']]]);
    }
    const trusted = await inProject(where, ['run', 'auth.http']);
    expect(trusted.code).toBe(0);
    expect(trusted.stderr).not.toMatch(/reqflow:/);
    expect(trusted.sent.map((r) => r.headers.authorization)).toEqual(['Bearer tok-cmd']);
    const history = await inProject(where, ['history']);
    expect(history.stderr).toBe('');
    expect(history.stdout.match(/\/me\b/g)).toHaveLength(work.length);
    expect(setAside(where.state)).toEqual([]);
  });
});

describe('state an earlier reqflow wrote (no folder recorded) is adopted', () => {
  test('a session: used, and its folder recorded when it is next saved — from then on bound to it', async () => {
    const where = place('legacy-session');
    repository(where.dir, { 'me.http': meHttp(), 'login.http': `POST ${server.url}/login?as=later\n` });
    const session = sessionFileFor(where.state, where.dir);
    mkdirSync(dirname(session), { recursive: true });
    writeFileSync(session, JSON.stringify({ version: 1, variables: { token: 'tok-legacy' }, data: {} }), { mode: 0o600 });
    const me = await inProject(where, ['run', 'me.http']);
    expect(me.code).toBe(0);
    expect(me.stderr).not.toMatch(/reqflow:/);
    expect(me.sent.map((r) => r.headers.authorization)).toEqual(['Bearer tok-legacy']);
    expect((await inProject(where, ['run', 'login.http'])).code).toBe(0);
    expect(JSON.parse(readFileSync(session, 'utf8'))).toMatchObject({ folder: { ino: expect.any(String) }, variables: { token: 'tok-later' } });
    replaceWith(where.dir, { 'me.http': meHttp() });
    const other = await inProject(where, ['run', 'me.http']);
    expect(other.sent).toEqual([]);
    expect(other.stderr).toMatch(EARLIER);
  });

  test('a history: shown, and its folder recorded by the next run', async () => {
    const where = place('legacy-history');
    repository(where.dir, { 'a.http': `GET ${server.url}/old-entry\n` });
    expect((await inProject(where, ['run', 'a.http'])).code).toBe(0);
    const record = join(dirname(historyFileFor(where.state, where.dir)), 'folder.json');
    unlinkSync(record); // as an earlier reqflow left it
    const list = await inProject(where, ['history']);
    expect(list.code).toBe(0);
    expect(list.stderr).not.toMatch(/reqflow:/);
    expect(list.stdout).toMatch(/old-entry/);
    expect((await inProject(where, ['run', 'a.http'])).stderr).not.toMatch(/reqflow:/);
    expect(JSON.parse(readFileSync(record, 'utf8'))).toMatchObject({ project: where.dir, folder: { ino: expect.any(String) } });
  });

  test('a trusted project: trusted, and its folder recorded at its first use — from then on bound to it', async () => {
    const where = place('legacy-trust');
    const auth = `# @auth command argv=["printf","tok-legacy-cmd"]\nGET ${server.url}/legacy-cmd\n`;
    repository(where.dir, { 'auth.http': auth });
    const store = join(where.env.REQFLOW_CONFIG_DIR as string, 'trusted-projects.json');
    mkdirSync(dirname(store), { recursive: true });
    writeFileSync(store, JSON.stringify({ version: 1, projects: [where.dir] }), { mode: 0o600 });
    const run = await inProject(where, ['run', 'auth.http']);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/reqflow:/);
    expect(run.sent.map((r) => r.headers.authorization)).toEqual(['Bearer tok-legacy-cmd']);
    expect(JSON.parse(readFileSync(store, 'utf8'))).toMatchObject({ projects: [where.dir], folders: { [where.dir]: { ino: expect.any(String) } } });
    expect((await inProject(where, ['trust'])).stdout).toBe(`${where.dir}: already trusted\n`);
    replaceWith(where.dir, { 'auth.http': auth });
    const other = await inProject(where, ['run', 'auth.http']);
    expect(other.code).toBe(2);
    expect(other.sent).toEqual([]);
  });
});
