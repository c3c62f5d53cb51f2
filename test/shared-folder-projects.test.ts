/**
 * A folder every user may write in (sticky, world-writable: /tmp, /var/tmp, /dev/shm) holds
 * unrelated people's and programs' folders. A project marker (`package.json` left by an
 * `npm install` in /tmp), a `.profiles.json` or an environment file there must not make the
 * folders below it one project: a login in one would be sent to the other's server.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

let a: Recorder;
let b: Recorder;
const tmp = tempDir('reqflow-shared-folder-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
const shared = join(tmp.dir, 'shared');

beforeAll(async () => {
  a = await startRecorder((req, res) => {
    res.setHeader('Set-Cookie', 'sid=cookie-of-a; Path=/');
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ token: 'tok-of-a' }));
  });
  b = await startRecorder();
  mkdirSync(shared);
  chmodSync(shared, 0o1777); // as /tmp
  tmp.write('shared/package.json', '{}');
  tmp.write('shared/.profiles.json', JSON.stringify([{ name: 'default', headers: { 'X-Planted': 'by-another-user' } }]));
  tmp.write('shared/http-client.env.json', JSON.stringify({ dev: { planted: 'by-another-user' } }));
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
  tmp.cleanup();
});

describe('folders in a shared folder are projects of their own', () => {
  test("a login in one is not sent to the other's server, and the shared folder's profiles and environments are nobody's", async () => {
    const login = tmp.write('shared/alpha/login.http', `POST ${a.url}/login\n`);
    const me = tmp.write('shared/beta/me.http', `GET ${b.url}/me\nAuthorization: Bearer {{token}}\n`);
    const plain = tmp.write('shared/beta/plain.http', `GET ${b.url}/plain\nX-Env: {{planted}}\n`);
    const first = await runCli(['run', login], { env, cwd: join(shared, 'alpha') });
    expect(first.code).toBe(0);
    expect(a.received.at(-1)?.headers['x-planted']).toBeUndefined();

    const other = await runCli(['run', me], { env, cwd: join(shared, 'beta') });
    expect(other.code).toBe(3);
    expect(other.stderr).toMatch(/unknown variable "token"/);
    const withEnv = await runCli(['run', plain, '--env', 'dev'], { env, cwd: join(shared, 'beta') });
    expect(withEnv.code).not.toBe(0);
    expect(b.received.filter((r) => r.headers.authorization !== undefined || r.headers.cookie !== undefined || r.headers['x-planted'] !== undefined || r.headers['x-env'] !== undefined)).toEqual([]);

    // Its own login stays its own: the same file run again sends it.
    tmp.write('shared/alpha/me.http', `GET ${a.url}/me\nAuthorization: Bearer {{token}}\n`);
    expect((await runCli(['run', join(shared, 'alpha', 'me.http')], { env, cwd: join(shared, 'alpha') })).code).toBe(0);
    expect(a.received.at(-1)?.headers.authorization).toBe('Bearer tok-of-a');
    expect(a.received.at(-1)?.headers.cookie).toBe('sid=cookie-of-a');
  });
});
