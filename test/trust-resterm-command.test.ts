/**
 * resterm's `# @auth command` (docs/trust.md): refused in a project nobody trusted — exit 2 naming
 * the line and the remedy, nothing sent — and run in a trusted one, the header as resterm builds
 * it; the token the program prints never appears in output, errors or the history.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runCli, tempDir, type CliResult } from './helpers/cli.js';
import { historyFileFor } from './helpers/history-file.js';
import { startRecorder, type Recorded, type Recorder } from './helpers/recorder.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'dialect', 'resterm');
const TOKEN = 'tok-from-program-7f3a';
const tmp = tempDir('reqflow-trust-command-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state'), REQFLOW_CONFIG_DIR: join(tmp.dir, 'config') };
let server: Recorder;

/** A project of its own (package.json marks it) holding the fixture and the program it runs. */
function project(name: string): string {
  const dir = join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{}');
  for (const file of ['command-auth.http', 'print-token.cjs']) copyFileSync(join(FIXTURES, file), join(dir, file));
  return dir;
}

async function run(dir: string, file: string, args: string[] = []): Promise<CliResult & { requests: Recorded[] }> {
  const before = server.received.length;
  const result = await runCli(['run', file, '-e', `host=${server.url}`, '--no-extract', ...args], { env, cwd: dir });
  return { ...result, requests: server.received.slice(before) };
}

beforeAll(async () => {
  server = await startRecorder();
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

describe("resterm's # @auth command", () => {
  test('untrusted: exit 2 naming the line and the remedy, nothing sent, the program not run', async () => {
    const dir = project('untrusted');
    const { code, stderr, requests } = await run(dir, 'command-auth.http');
    expect(code).toBe(2);
    expect(stderr).toContain('command-auth.http:2: # @auth command runs a program; `reqflow trust` this project or pass --trust');
    expect(stderr).toContain('command-auth.http:11: # @auth command runs a program');
    // One line and a hint per refused request, no stack trace.
    expect(stderr.split('\n').filter((line) => line.startsWith('reqflow: '))).toHaveLength(4);
    expect(stderr).not.toMatch(/\n\s+at /);
    // Only the request that writes its own Authorization header (it needs no program) went out; the program never ran.
    expect(requests.map((r) => [r.url, r.headers.authorization])).toEqual([['/resterm/command-written', 'Bearer written']]);
    expect(existsSync(join(dir, 'runs.log'))).toBe(false);
  });

  test('--trust: each request carries the header resterm builds from what the program printed', async () => {
    const dir = project('flag');
    const { code, requests } = await run(dir, 'command-auth.http', ['--trust']);
    expect(code).toBe(0);
    expect(requests.map((r) => [r.url, r.headers.authorization, r.headers['x-token']])).toEqual([
      ['/resterm/command', `Bearer ${TOKEN}`, undefined],
      ['/resterm/command-again', `Bearer ${TOKEN}`, undefined],
      ['/resterm/command-json', undefined, TOKEN],
      ['/resterm/command-type', `Token ${TOKEN}`, undefined],
      ['/resterm/command-written', 'Bearer written', undefined],
    ]);
    // In the request file's folder, once per cache_key (the file's), once for each request without one, never for a written header.
    expect(readFileSync(join(dir, 'runs.log'), 'utf8')).toBe('text\njson\njson\n');
  });

  test('a trusted project runs it without the flag; its sibling is still refused; revoked, it is refused again', async () => {
    const trusted = project('trusted');
    const sibling = project('sibling');
    expect((await runCli(['trust'], { env, cwd: trusted })).code).toBe(0);
    const ok = await run(trusted, 'command-auth.http');
    expect(ok.code).toBe(0);
    expect(ok.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const other = await run(sibling, 'command-auth.http');
    expect(other.code).toBe(2);
    expect(other.requests.map((r) => r.url)).toEqual(['/resterm/command-written']);
    expect((await runCli(['trust', '--revoke', trusted], { env, cwd: tmp.dir })).code).toBe(0);
    const revoked = await run(trusted, 'command-auth.http');
    expect(revoked.code).toBe(2);
    expect(revoked.requests.map((r) => r.url)).toEqual(['/resterm/command-written']);
  });

  test("a file outside a trusted project, run from the project's folder (whose profiles it then uses), is refused", async () => {
    const trusted = project('host');
    writeFileSync(join(trusted, '.profiles.json'), '[]');
    expect((await runCli(['trust'], { env, cwd: trusted })).code).toBe(0);
    // A downloaded file, nowhere near a project marker: its session is the current folder's project, its trust is not.
    const stray = join(tmp.dir, 'downloads');
    mkdirSync(stray);
    for (const file of ['command-auth.http', 'print-token.cjs']) copyFileSync(join(FIXTURES, file), join(stray, file));
    const { code, stderr, requests } = await run(trusted, join(stray, 'command-auth.http'));
    expect(code).toBe(2);
    expect(stderr).toContain('# @auth command runs a program');
    expect(stderr).toContain(`is outside the project ${realpathSync(trusted)}`);
    expect(requests.map((r) => r.url)).toEqual(['/resterm/command-written']);
    expect(existsSync(join(stray, 'runs.log'))).toBe(false);
  });

  test('the token is never shown: not with -v, not in -o json, not in the history', async () => {
    const dir = project('masked');
    const verbose = await run(dir, 'command-auth.http', ['--trust', '-v']);
    const json = await run(dir, 'command-auth.http', ['--trust', '-o', 'json']);
    expect(verbose.code).toBe(0);
    expect(json.code).toBe(0);
    expect(verbose.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    for (const text of [verbose.stdout, verbose.stderr, json.stdout, json.stderr]) expect(text).not.toContain(TOKEN);
    expect(verbose.stderr + verbose.stdout).toMatch(/authorization: •••/i);
    const history = readFileSync(historyFileFor(env.REQFLOW_STATE_DIR, dir), 'utf8');
    expect(history).toContain('/resterm/command');
    expect(history).not.toContain(TOKEN);
  });

  test.each([
    ['a program that fails', 'argv=["node","./print-token.cjs","fail"]', /# @auth command node: exited with status 4: not logged in to any hosts/],
    ['a program that does not end', 'argv=["node","./print-token.cjs","hang"] timeout=1s', /# @auth command node: did not finish within 1 s/],
    ['a program that does not exist', 'argv=["./no-such-program"]', /# @auth command no-such-program: could not start: no such program/],
    ['a shell as the program', 'argv=["sh","-c","gh auth token"]', /a shell \(sh\) as the program is refused/],
    ['argv that is not a list', 'argv=gh', /argv must be a JSON list of words/],
    ['a shell named by a variable (a value a response may have given)', 'argv=["{{program}}","-c","gh auth token"]', /a shell \(sh\) as the program is refused/],
    // Held whole, it took every byte of memory (2.3 GB in 3 s) and Node died with a stack trace.
    ['a program that prints without end', 'argv=["yes","tok-from-program-7f3a"] timeout=5s', /# @auth command yes: printed more than 256 KiB/],
  ])('%s: one line naming the line, nothing sent, no token', async (_, params, message) => {
    const dir = project(`bad-${params.length}-${Math.random().toString(36).slice(2, 6)}`);
    writeFileSync(join(dir, 'bad.http'), `@program = sh\n\n### a\n# @auth command ${params}\nGET {{host}}/resterm/bad\n`);
    const { code, stderr, stdout, requests } = await run(dir, 'bad.http', ['--trust']);
    expect(code).toBe(2);
    expect(stderr).toContain('bad.http:4: # @auth command');
    expect(stderr).toMatch(message);
    expect(stderr + stdout).not.toContain(TOKEN);
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(requests).toEqual([]);
  });
});
