/**
 * Script globals (`client.global.set`, httpyac's `$global`) outlive the file that set them: the
 * files after it in one `reqflow test` invocation see them (as ijhttp), and later runs of any file
 * of the same project and profile read them from the session (as the JetBrains IDE keeps them) —
 * below the environment, never across projects or profiles, masked when they look like credentials.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';
import { sessionFileFor } from './helpers/session-file.js';

const SECRET = 'Bearer sk-live-4f9a8b7c6d5e';

/** POST /login answers the credential in a field token extraction does not take; every other request gets its headers back. */
let server: Recorder;
const tmp = tempDir('reqflow-globals-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  server = await startRecorder((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(req.url === '/login' ? JSON.stringify({ access: SECRET }) : JSON.stringify({ echoed: req.headers['x-boss'] ?? null }));
  });
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const login = (): string => `### login\nPOST ${server.url}/login\n\n> {%\n  client.global.set("BOSS_AUTHORIZATION", response.body.access);\n  client.global.set("tenant", "acme");\n%}\n`;
const store = (): string => `### store\nGET ${server.url}/store?tenant={{tenant}}\nAuthorization: {{BOSS_AUTHORIZATION}}\nX-Boss: {{BOSS_AUTHORIZATION}}\n`;

/** Every file under a folder, as text (the history, the reports). */
function textsUnder(dir: string): string {
  let out = '';
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    out += statSync(path).isDirectory() ? textsUnder(path) : readFileSync(path, 'utf8');
  }
  return out;
}

describe('across runs: the session of the project and profile', () => {
  test("a login file's global is sent by a later run of another file, masked in output and history", async () => {
    tmp.write('alpha/.profiles.json', JSON.stringify([{ name: 'default' }, { name: 'other' }]));
    tmp.write('alpha/http-client.env.json', JSON.stringify({ dev: { tenant: 'from-env' } }));
    const auth = tmp.write('alpha/auth/auth.http', login());
    const use = tmp.write('alpha/shop/store.http', store());
    const cwd = join(tmp.dir, 'alpha');
    expect((await runCli(['run', auth], { env, cwd })).code).toBe(0);

    const run = await runCli(['run', use, '-v'], { env, cwd });
    expect(run.code).toBe(0);
    const sent = server.received.at(-1);
    expect(sent?.url).toBe('/store?tenant=acme');
    expect(sent?.headers.authorization).toBe(SECRET);
    expect(sent?.headers['x-boss']).toBe(SECRET);
    // -v masks the header whose name says nothing: the global was registered as a secret (the body is the server's, shown as it came).
    expect(run.stderr).toContain('X-Boss: •••');
    expect(run.stderr).not.toContain('sk-live-4f9a8b7c6d5e');
    // The history keeps the request masked; only the session holds the value, 0600.
    expect(textsUnder(join(env.REQFLOW_STATE_DIR, 'history'))).not.toContain('sk-live-4f9a8b7c6d5e');
    const sessionFile = sessionFileFor(env.REQFLOW_STATE_DIR, cwd);
    expect(JSON.parse(readFileSync(sessionFile, 'utf8')).data['reqflow.globals']).toEqual({ BOSS_AUTHORIZATION: SECRET, tenant: 'acme' });
    expect(statSync(sessionFile).mode & 0o777).toBe(0o600);
  });

  test('the session keeps a project\'s globals up to 8 MiB in all: a larger one is used in its run, said once, and not kept', async () => {
    const cwd = join(tmp.dir, 'big');
    tmp.write('big/.profiles.json', JSON.stringify([{ name: 'default' }]));
    // 3 × 3 MiB: the third would pass the cap; the run still uses it (its length goes out in a header).
    const big = tmp.write('big/big.http', `### fill\nGET ${server.url}/fill\n\n> {%\n  for (const n of ["a", "b", "c"]) client.global.set("blob_" + n, "x".repeat(3 * 1024 * 1024));\n  client.global.set("small", "kept");\n%}\n\n### use\n< {%\n  request.variables.set("len", String(client.global.get("blob_c").length));\n%}\nGET ${server.url}/use\nX-Len: {{len}}\n`);
    const run = await runCli(['run', big], { env, cwd });
    expect(run.code).toBe(0);
    expect(server.received.at(-1)?.headers['x-len']).toBe(String(3 * 1024 * 1024));
    expect(run.stderr.match(/the script global "blob_c" \(3,145,728 characters\) is used in this run but not kept in the session/g)).toHaveLength(1);
    const kept = JSON.parse(readFileSync(sessionFileFor(env.REQFLOW_STATE_DIR, cwd), 'utf8')).data['reqflow.globals'] as Record<string, string>;
    expect(Object.keys(kept).sort()).toEqual(['blob_a', 'blob_b', 'small']);
  });

  test("the selected environment's variable wins over a global of the same name", async () => {
    const cwd = join(tmp.dir, 'alpha');
    expect((await runCli(['run', join(cwd, 'shop/store.http'), '--env', 'dev'], { env, cwd })).code).toBe(0);
    expect(server.received.at(-1)?.url).toBe('/store?tenant=from-env');
    expect(server.received.at(-1)?.headers.authorization).toBe(SECRET);
  });

  test('another profile, another project and --no-session do not see it', async () => {
    const cwd = join(tmp.dir, 'alpha');
    const before = server.received.length;
    const otherProfile = await runCli(['run', join(cwd, 'shop/store.http'), '-p', 'other'], { env, cwd });
    expect(otherProfile.code).toBe(3);
    expect(otherProfile.stderr).toMatch(/unknown variable "(tenant|BOSS_AUTHORIZATION)"/);
    const noSession = await runCli(['run', join(cwd, 'shop/store.http'), '--no-session'], { env, cwd });
    expect(noSession.code).toBe(3);
    tmp.write('beta/http-client.env.json', '{}');
    const elsewhere = tmp.write('beta/store.http', store());
    const otherProject = await runCli(['run', elsewhere], { env, cwd: join(tmp.dir, 'beta') });
    expect(otherProject.code).toBe(3);
    expect(server.received.length).toBe(before);
  });

  test('reqflow globals lists them masked (--show for values), clear forgets them, and so does client.global.clear', async () => {
    const cwd = join(tmp.dir, 'alpha');
    const list = await runCli(['globals', 'list'], { env, cwd });
    expect(list.code).toBe(0);
    expect(list.stdout).toBe('BOSS_AUTHORIZATION\t•••\ntenant\t•••\n');
    const shown = await runCli(['globals', 'list', '--show', '--json'], { env, cwd });
    expect(JSON.parse(shown.stdout).globals).toEqual({ BOSS_AUTHORIZATION: SECRET, tenant: 'acme' });
    expect((await runCli(['globals', 'clear', 'tenant'], { env, cwd })).stdout).toBe('removed 1 global of profile "default"\n');
    expect((await runCli(['globals', 'list'], { env, cwd })).stdout).toBe('BOSS_AUTHORIZATION\t•••\n');
    // A handler's clear removes it from the session too.
    const clearing = tmp.write('alpha/auth/logout.http', `POST ${server.url}/logout\n\n> {% client.global.clear("BOSS_AUTHORIZATION"); %}\n`);
    expect((await runCli(['run', clearing], { env, cwd })).code).toBe(0);
    expect((await runCli(['globals', 'list'], { env, cwd })).stdout).toBe('no script globals kept for profile "default"\n');
    expect(JSON.parse(readFileSync(sessionFileFor(env.REQFLOW_STATE_DIR, cwd), 'utf8')).data['reqflow.globals']).toBeUndefined();
  });
});

describe('one invocation: reqflow test DIR', () => {
  test("a file sees the globals the files before it set, even with --no-session (nothing kept)", async () => {
    tmp.write('gamma/http-client.env.json', '{}');
    tmp.write('gamma/a-auth.http', login());
    tmp.write('gamma/b-store.http', store());
    const cwd = join(tmp.dir, 'gamma');
    const result = await runCli(['test', cwd, '--no-session'], { env, cwd });
    expect(result.code).toBe(0);
    expect(server.received.at(-1)?.url).toBe('/store?tenant=acme');
    expect(server.received.at(-1)?.headers.authorization).toBe(SECRET);
    expect(result.stdout + result.stderr).not.toContain('sk-live-4f9a8b7c6d5e');
    expect(textsUnder(join(env.REQFLOW_STATE_DIR, 'history'))).not.toContain('sk-live-4f9a8b7c6d5e');
    // --no-session: the next run has nothing.
    expect((await runCli(['globals', 'list'], { env, cwd })).stdout).toBe('no script globals kept for profile "default"\n');
  });

  test('httpyac $global values pass to the next file too, and are kept for later runs', async () => {
    tmp.write('delta/http-client.env.json', '{}');
    tmp.write('delta/a-auth.http', `POST ${server.url}/login\n\n{{@response\n  $global.region = 'eu-west';\n  exports.onlyHere = 'x';\n}}\n`);
    tmp.write('delta/b-use.http', `GET ${server.url}/region/{{region}}\n`);
    const cwd = join(tmp.dir, 'delta');
    expect((await runCli(['test', cwd], { env, cwd })).code).toBe(0);
    expect(server.received.at(-1)?.url).toBe('/region/eu-west');
    expect(JSON.parse((await runCli(['globals', 'list', '--show', '--json'], { env, cwd })).stdout).globals).toEqual({ region: 'eu-west' });
  });
});
