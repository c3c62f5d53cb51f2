/**
 * Sessions hold tokens: they are private (0600 files in 0700 folders), written atomically, never
 * torn or emptied by a crash, and a corrupt one is reported and kept aside, never silently
 * overwritten. A session path that cannot be used is a clear error, not a crash.
 */
import { sessionFileFor } from './helpers/session-file.js';
import { projectRoot } from '../src/core/project.js';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadSession, sessionPath } from '../src/core/session.js';
import { ROOT } from './helpers/cli.js';
import { expectCleanFailure } from './helpers/expect-error.js';
import { project, type Project } from './helpers/auth-project.js';
import { seededRandom, startFaultServer, type FaultServer } from './helpers/fault-server.js';

let server: FaultServer;
let p: Project;

beforeAll(async () => {
  server = await startFaultServer();
  p = project();
  const login = encodeURIComponent(JSON.stringify({ token: 'tok-session-0600-check' }));
  p.write('login.http', `### login\nPOST ${server.url}/json?body=${login}\n\n### me\nGET ${server.url}/ok\nAuthorization: Bearer {{token}}\n`);
});

afterAll(async () => {
  await server.close();
  p.cleanup();
});

const mode = (path: string): number => statSync(path).mode & 0o777;
const env = (): NodeJS.ProcessEnv => ({ REQFLOW_STATE_DIR: p.stateDir });

describe('session files', () => {
  test('are 0600 in a 0700 folder, with no temp files left behind', async () => {
    const result = await p.run(['run', 'login.http']);
    expect(result.code).toBe(0);
    const path = sessionFileFor(p.stateDir, p.dir);
    expect(JSON.parse(readFileSync(path, 'utf8')).variables.token).toBe('tok-session-0600-check');
    expect(mode(path)).toBe(0o600);
    expect(mode(join(p.stateDir, 'sessions'))).toBe(0o700);
    expect(mode(p.stateDir)).toBe(0o700);
    expect(readdirSync(dirname(sessionFileFor(p.stateDir, p.dir)))).toEqual(['default.json']);
    expect(mode(dirname(sessionFileFor(p.stateDir, p.dir)))).toBe(0o700);
    // The second request really used the stored token.
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer tok-session-0600-check');
  });

  test('an existing folder (REQFLOW_STATE_DIR, a shared one) is never re-moded; the session file stays 0600', async () => {
    const dir = join(p.stateDir, 'sessions');
    (await import('node:fs')).chmodSync(dir, 0o755);
    (await import('node:fs')).chmodSync(p.stateDir, 0o777);
    const session = await loadSession('default', { env: env(), project: projectRoot(p.dir) });
    session.set('other', 'value');
    await session.save();
    expect(mode(dir)).toBe(0o755);
    expect(mode(p.stateDir)).toBe(0o777);
    expect(mode(sessionFileFor(p.stateDir, p.dir))).toBe(0o600);
    (await import('node:fs')).chmodSync(p.stateDir, 0o700);
  });

  test('folders reqflow creates are 0700', async () => {
    const fresh = join(p.stateDir, 'fresh', 'state');
    const session = await loadSession('default', { env: { REQFLOW_STATE_DIR: fresh }, project: p.dir });
    session.set('x', 'y');
    await session.save();
    expect(mode(fresh)).toBe(0o700);
    expect(mode(join(fresh, 'sessions'))).toBe(0o700);
  });

  test('a corrupt session is reported, moved aside byte for byte (0600), and a new one started', async () => {
    const path = sessionFileFor(p.stateDir, p.dir);
    const garbage = '{"version":1,"variables":{"token":"half-writ';
    writeFileSync(path, garbage, { mode: 0o644 });
    const result = await p.run(['run', 'login.http']);
    expect(result.code).toBe(0);
    const warning = /^reqflow: warning: session file of profile "default" was corrupt; moved it to (.+\.corrupt-\d+) and started a new session$/m.exec(result.stderr);
    expect(warning).not.toBeNull();
    const aside = (warning as RegExpExecArray)[1] as string;
    expect(readFileSync(aside, 'utf8')).toBe(garbage);
    expect(mode(aside)).toBe(0o600);
    // The new session works: the login stored a fresh token.
    expect(JSON.parse(readFileSync(path, 'utf8')).variables.token).toBe('tok-session-0600-check');
  });

  test.each([['5'], ['{}'], ['true']])('a list of extracted names that is %s (the file edited by hand) is read as a value alone: the login runs, its token is stored (it was exit 70)', async (written) => {
    const path = sessionFileFor(p.stateDir, p.dir);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `{"version":1,"variables":{"token":"old"},"data":{"reqflow.extracted":${written}}}`);
    const result = await p.run(['run', 'login.http']);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: expect.not.stringContaining('internal error') as unknown as string });
    expect(JSON.parse(readFileSync(path, 'utf8')).variables.token).toBe('tok-session-0600-check');
  });

  test("a link put in the session file's place is moved aside as it is: its target, a file of the user's, keeps its content and mode", async () => {
    const path = sessionFileFor(p.stateDir, p.dir);
    const victim = join(p.dir, 'notes.txt');
    writeFileSync(victim, 'a file of the user\'s\n', { mode: 0o644 });
    chmodSync(victim, 0o644);
    rmSync(path, { force: true });
    symlinkSync(victim, path);
    const result = await p.run(['run', 'login.http', '-n', 'login']);
    expect(result.code).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('a file of the user\'s\n');
    expect(mode(victim)).toBe(0o644);
    expect(lstatSync(path).isSymbolicLink()).toBe(false); // a session file of reqflow's own now
  });

  test.each([
    ['empty', ''],
    ['wrong shape', '{"version":1,"variables":{"token":42}}'],
    ['not JSON', '\u0000\u0001binary'],
  ])('a session file that is %s is also set aside with a warning', async (_name, content) => {
    const path = sessionFileFor(p.stateDir, p.dir);
    writeFileSync(path, content);
    const result = await p.run(['run', 'login.http', '-n', 'login']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^reqflow: warning: session file of profile "default" was corrupt; moved it to .+ and started a new session$/m);
  });

  test('a session path that is a folder is a clear error', async () => {
    const q = project();
    try {
      q.write('a.http', `GET ${server.url}/ok\n`);
      mkdirSync(sessionFileFor(q.stateDir, q.dir), { recursive: true });
      expectCleanFailure(await q.run(['run', 'a.http']), { code: 2, message: /cannot read the session file of profile "default": .*default\.json: it is a folder/, hint: /REQFLOW_STATE_DIR/ });
    } finally {
      q.cleanup();
    }
  });

  test.each([
    ['a named pipe', (path: string) => execFileSync('mkfifo', [path]), 'a named pipe'],
    ['a link to /dev/zero', (path: string) => symlinkSync('/dev/zero', path), 'a device'],
  ])("%s in the session file's place is exit 2 naming it, never read (it waited, or read, for ever)", async (_what, make, kind) => {
    const q = project();
    try {
      q.write('a.http', `GET ${server.url}/ok\n`);
      const path = sessionFileFor(q.stateDir, q.dir);
      mkdirSync(dirname(path), { recursive: true });
      make(path);
      for (const args of [['run', 'a.http'], ['cookies', 'list']]) {
        expectCleanFailure(await q.run(args), { code: 2, message: new RegExp(`cannot read the session file of profile "default": .*default\\.json: ${kind}$`, 'm'), hint: /REQFLOW_STATE_DIR/ });
      }
    } finally {
      q.cleanup();
    }
  });

  test('a state folder that cannot be created is a clear error', async () => {
    const q = project();
    try {
      q.write('a.http', `GET ${server.url}/ok\n`);
      const file = q.write('not-a-folder', 'x');
      const result = await q.run(['run', 'a.http'], { REQFLOW_STATE_DIR: file });
      expectCleanFailure(result, { code: 2, message: /session file of profile "default": .*a parent of it is not a folder/ });
    } finally {
      q.cleanup();
    }
  });
});

/**
 * A child process saves a session in a loop (values of varying size), and is killed with
 * SIGKILL at seeded random moments. After every kill the session file must be whole: valid
 * JSON with the expected shape, never empty, never torn, and loading it must not warn.
 */
describe('a crash mid-write', () => {
  const WRITER = `
    const { loadSession } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/core/session.js')).href)});
    const env = { REQFLOW_STATE_DIR: process.argv[1] };
    let n = 0;
    for (;;) {
      const session = await loadSession('crash', { env, project: '/crash', warn: (m) => { console.error('WARN ' + m); process.exit(3); } });
      const size = 1 + ((n * 7919) % 400000);
      session.set('token', 'v' + n + ':' + 'x'.repeat(size));
      session.setData('oauth', { n, refresh: 'r'.repeat(size % 1000) });
      await session.save();
      if (n++ === 0) process.stdout.write('ready\\n');
    }
  `;

  /** Writers on one state folder, one after another, each killed at a seeded random moment; the kills' counters. */
  async function killedWriters(stateDir: string, rounds: number, random: () => number): Promise<number[]> {
    const seen: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const child = spawn(process.execPath, ['--input-type=module', '-e', WRITER, stateDir], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      await new Promise<void>((resolve, reject) => {
        child.stdout.once('data', () => resolve());
        child.once('exit', (code) => reject(new Error(`writer exited early (${code}): ${stderr}`)));
      });
      await new Promise((r) => setTimeout(r, 5 + Math.floor(random() * 120)));
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      expect(stderr).toBe('');
      const path = sessionPath('crash', '/crash', { REQFLOW_STATE_DIR: stateDir });
      const text = readFileSync(path, 'utf8');
      expect(text.length).toBeGreaterThan(0);
      const parsed = JSON.parse(text) as { version: number; variables: { token: string }; data: { oauth: { n: number } } };
      expect(parsed.version).toBe(1);
      const n = parsed.data.oauth.n;
      expect(parsed.variables.token).toBe(`v${n}:${'x'.repeat(1 + ((n * 7919) % 400000))}`);
      seen.push(n);
      const warnings: string[] = [];
      await loadSession('crash', { env: { REQFLOW_STATE_DIR: stateDir }, project: '/crash', warn: (m) => warnings.push(m) });
      expect(warnings).toEqual([]);
      expect(mode(path)).toBe(0o600);
    }
    return seen;
  }

  test('never leaves a corrupt or empty session (SIGKILL at random moments)', async () => {
    // A kill inside a save (most of the writer's time) leaves its lock, stale only after 2 s
    // (proper-lockfile's least): each round costs about that, so 4 state folders take 3 each at once.
    const projects = Array.from({ length: 4 }, () => project());
    try {
      const seen = (await Promise.all(projects.map((q, i) => killedWriters(q.stateDir, 3, seededRandom(20260609 + i))))).flat();
      // The kills landed at different points of the loop, not always before the first save.
      expect(new Set(seen).size).toBeGreaterThan(3);
      for (const q of projects) {
        // Temp files of killed writers do not pile up: at most the one of the last kill remains.
        const leftovers = readdirSync(join(q.stateDir, 'sessions', '%2Fcrash')).filter((name) => name.endsWith('.tmp'));
        expect(leftovers.length).toBeLessThanOrEqual(1);
        expect(existsSync(join(q.stateDir, 'sessions', '%2Fcrash', 'crash.json'))).toBe(true);
      }
    } finally {
      for (const q of projects) q.cleanup();
    }
  }, 60_000);
});

describe('under a permissive umask (000)', () => {
  test('the session lock folder, the session folders and the file are private (no group/other bits)', async () => {
    const q = project();
    try {
      // The child records the mode of the lock folder while a save holds it.
      const script = `
        process.umask(0);
        const { loadSession } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/core/session.js')).href)});
        const { statSync } = await import('node:fs');
        const session = await loadSession('umask', { env: { REQFLOW_STATE_DIR: process.argv[1] }, project: '/umask' });
        const modes = new Set();
        let watching = true;
        const poll = () => { try { modes.add(statSync(session.path + '.lock').mode & 0o777); } catch {} if (watching) setImmediate(poll); };
        poll();
        for (let i = 0; i < 20; i++) { session.set('v', 'x'.repeat(i * 50000)); await session.save(); }
        watching = false;
        process.stdout.write(JSON.stringify({ locks: [...modes], file: statSync(session.path).mode & 0o777 }));
      `;
      const child = spawn(process.execPath, ['--input-type=module', '-e', script, q.stateDir], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      await new Promise((resolve) => child.once('exit', resolve));
      const seen = JSON.parse(out) as { locks: number[]; file: number };
      expect(seen.locks.length).toBeGreaterThan(0);
      expect(seen.locks).toEqual([0o700]);
      expect(seen.file).toBe(0o600);
      expect(mode(join(q.stateDir, 'sessions'))).toBe(0o700);
      expect(mode(join(q.stateDir, 'sessions', '%2Fumask'))).toBe(0o700);
    } finally {
      q.cleanup();
    }
  }, 30_000);
});
