/**
 * Two projects that use the same profile name and share one state folder, run at the same time:
 * each process logs in (a token extracted from the answer, a cookie, a script global) and saves
 * its session while the other saves its own; the next run of each sends only its own project's
 * token, cookie and global (docs/security.md: state of one project never reaching another).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

const ROUNDS = 3;
const tmp = tempDir('reqflow-concurrent-projects-');
const servers: Record<'a' | 'b', Recorder> = {} as Record<'a' | 'b', Recorder>;

beforeAll(async () => {
  for (const name of ['a', 'b'] as const) {
    // Each login answers a new token and cookie, named by project and by the round (its count of logins).
    let logins = 0;
    servers[name] = await startRecorder((req, res) => {
      if (req.url === '/login') {
        logins += 1;
        res.setHeader('Set-Cookie', `sid=cookie-${name}-${logins}`);
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ token: `token-${name}-${logins}` }));
        return;
      }
      res.end('{}');
    });
    mkdirSync(join(tmp.dir, name, '.git'), { recursive: true });
    tmp.write(`${name}/.profiles.json`, JSON.stringify([{ name: 'dev', variables: { base: servers[name].url } }]));
    tmp.write(`${name}/login.http`, `### login\nPOST {{base}}/login\n\n> {%\nclient.global.set("g", "global-${name}");\n%}\n`);
    tmp.write(`${name}/me.http`, `### me\nGET {{base}}/me\nAuthorization: Bearer {{token}}\nX-G: {{g}}\n`);
  }
});
afterAll(async () => {
  await Promise.all([servers.a.close(), servers.b.close()]);
  tmp.cleanup();
});

const run = (project: 'a' | 'b', file: string) => runCli(['run', file, '-p', 'dev'], { cwd: join(tmp.dir, project), env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });

describe('two projects, one state folder, runs at the same time', () => {
  test(`${ROUNDS} rounds of logins at once, then a request each at once: each sends only its own token, cookie and global`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const logins = await Promise.all([run('a', 'login.http'), run('b', 'login.http')]);
      expect(logins.map((r) => [r.code, r.stderr])).toEqual([[0, expect.any(String)], [0, expect.any(String)]]);
      const uses = await Promise.all([run('a', 'me.http'), run('b', 'me.http')]);
      expect(uses.map((r) => r.code)).toEqual([0, 0]);
      for (const name of ['a', 'b'] as const) {
        const sent = servers[name].received.filter((r) => r.url === '/me').at(-1);
        expect([sent?.headers.authorization, sent?.headers.cookie, sent?.headers['x-g']]).toEqual([`Bearer token-${name}-${round}`, `sid=cookie-${name}-${round}`, `global-${name}`]);
      }
    }
    // Neither server ever saw anything of the other project's.
    for (const [name, other] of [['a', 'b'], ['b', 'a']] as const) {
      expect(servers[name].received.map((r) => JSON.stringify(r.headers)).filter((headers) => headers.includes(`-${other}-`) || headers.includes(`global-${other}`))).toEqual([]);
    }
  }, 60_000);
});
