/**
 * What an authorization server sends that reqflow shows or computes with, against a hostile one
 * on 127.0.0.1: lifetimes no date can hold, error texts that try to forge output lines, device
 * responses full of terminal controls or with a URL that is not a web page.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';

/** What each token endpoint path answers (status and JSON body). */
const TOKEN_ANSWERS: Record<string, { status: number; body: Record<string, unknown> }> = {
  '/expires-1e13/token': { status: 200, body: { access_token: 'AT-forever-123456', token_type: 'Bearer', expires_in: 1e13 } },
  '/expires-1e308/token': { status: 200, body: { access_token: 'AT-forever-654321', token_type: 'Bearer', expires_in: 1e308 } },
};

const tmp = tempDir('reqflow-oauth-text-');
let server: Server;
let base = '';
/** The Authorization header of each API call, in order. */
const apiCalls: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/api') {
        apiCalls.push(req.headers.authorization ?? '');
        return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      }
      const answer = TOKEN_ANSWERS[path];
      if (!answer) return void res.writeHead(404).end();
      // JSON.stringify writes 1e308 as 1e+308: a number either way.
      res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const machine = (name: string) => ({ name, oauth: { grant: 'client_credentials', tokenUrl: `${base}/${name}/token`, clientId: 'cid', clientSecret: 'CLIENT-SECRET-123456' } });
  tmp.write('.profiles.json', JSON.stringify([machine('expires-1e13'), machine('expires-1e308')]));
  tmp.write('api.http', `### api\n# @auth oauth2\nGET ${base}/api\n`);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

/** Each test its own state folder: no token carried from one to the next. */
function cli(state: string) {
  const env = { REQFLOW_STATE_DIR: join(tmp.dir, `state-${state}`) };
  return (...args: string[]) => runCli(args, { cwd: tmp.dir, env });
}

describe('a lifetime no date can hold (expires_in 1e13, 1e308)', () => {
  test.each(['expires-1e13', 'expires-1e308'])('%s: the token is used and kept as valid for 100 years, not an internal error', async (profile) => {
    const reqflow = cli(profile);
    const before = apiCalls.length;
    const run = await reqflow('run', 'api.http', '-p', profile);
    expect(run.stderr).not.toMatch(/internal error|Invalid time value/);
    expect(run.code).toBe(0);
    expect(apiCalls.slice(before)).toEqual([`Bearer AT-forever-${profile === 'expires-1e13' ? '123456' : '654321'}`]);
    const login = await reqflow('oauth', 'login', '-p', profile);
    expect(login.stderr).not.toMatch(/internal error|Invalid time value/);
    expect(login.code).toBe(0);
    expect(login.stdout).toBe(`Logged in to profile "${profile}" (client_credentials): expires in 36525 days, no refresh token.\n`);
    const status = await reqflow('oauth', 'status', '-p', profile, '--json');
    expect(status.code).toBe(0);
    const { expiresAt, expired } = JSON.parse(status.stdout) as { expiresAt: string; expired: boolean };
    expect(expired).toBe(false);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(99 * 365 * 24 * 3600 * 1000);
  });
});
