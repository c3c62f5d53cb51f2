/**
 * The OAuth token a session file keeps, edited by hand or written by something else: an entry whose
 * fields are of the wrong type (a refresh token that is a number, an expiry that is an object) is
 * as no token — `oauth status` says so and a run fetches or asks for a new one — never an internal
 * error (exit 70) in `oauth status` or in the refresh before a request.
 */
import { afterAll, expect, test } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { sessionFileFor } from './helpers/session-file.js';

const tmp = tempDir('reqflow-oauth-store-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
afterAll(() => tmp.cleanup());

tmp.write('package.json', '{}');
// A token endpoint nothing listens on: a run that needs a new token fails on the network (exit 4), not inside reqflow.
tmp.write('.profiles.json', JSON.stringify([{ name: 'default', auth: { type: 'oauth2' }, oauth: { tokenUrl: 'http://127.0.0.1:1/token', clientId: 'c', clientSecret: 's', grant: 'client_credentials' } }]));
tmp.write('r.http', 'GET http://127.0.0.1:1/api\n');

test.each([
  ['fields of every wrong type', { grant: 'client_credentials', clientId: 5, tokenType: {}, obtainedAt: [], expiresAt: { a: 1 }, refreshToken: { x: 1 }, scope: 7 }],
  ['a refresh token that is a number, an expired token', { grant: 'authorization_code', expiresAt: '1970-01-01T00:00:00Z', refreshToken: 5 }],
  ['a refresh token that is a list', { grant: 'authorization_code', expiresAt: '2000-01-01T00:00:00Z', refreshToken: ['r'] }],
])('%s: oauth status and a run end cleanly', async (_what, oauth) => {
  const path = sessionFileFor(env.REQFLOW_STATE_DIR, tmp.dir);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify({ version: 1, variables: { token: 'tok-abcdef123' }, data: { oauth } }));
  const status = await runCli(['oauth', 'status'], { cwd: tmp.dir, env });
  expect({ code: status.code, stderr: status.stderr }).toEqual({ code: 0, stderr: '' });
  expect(status.stdout).toContain('refresh: no');
  writeFileSync(path, JSON.stringify({ version: 1, variables: { token: 'tok-abcdef123' }, data: { oauth } }));
  const run = await runCli(['run', 'r.http'], { cwd: tmp.dir, env });
  expect(run.code).not.toBe(70);
  expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
});
