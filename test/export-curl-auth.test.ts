/**
 * `--as curl` for what the request's headers do not show: digest auth, which the send stage
 * answers (the printed command must answer the challenge too, as curl's `--digest -u`), and a
 * cookie the jar got from a server with bytes past ASCII (sent back as those bytes, not as the
 * UTF-8 a terminal's text would make of them). Each printed command is run by the real curl.
 */
import { afterAll, beforeAll, expect } from '@jest/globals';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import httpAuth from 'http-auth';
import { runCli, runShell, tempDir, type CliResult } from './helpers/cli.js';
import { needs } from './helpers/system-programs.js';

const withCurl = needs(['curl'], 'the round trips through the real curl');
const USER = 'Mufasa';
const PASSWORD = 'Circle of Life';
const tmp = tempDir('reqflow-export-auth-');
const stateDir = join(tmp.dir, 'state');
/** What arrived: method, target and headers as the server read them (Latin-1, one character a byte). */
const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers'] }> = [];
let server: Server;
let base = '';

beforeAll(async () => {
  const md5 = (text: string): string => createHash('md5').update(text).digest('hex');
  // http-auth's own digest check: a maintained server implementation, not the client's code.
  const digest = httpAuth.digest({ realm: 'zoo', algorithm: 'MD5', qop: 'auth', file: () => `${USER}:zoo:${md5(`${USER}:zoo:${PASSWORD}`)}` });
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    if (req.url === '/login') return void res.setHeader('Set-Cookie', 'c=caf\u00e9x; Path=/').end(Buffer.from('in')); // é as one byte, E9 (beside a string body Node writes the head in UTF-8)
    if (req.url?.startsWith('/zoo')) return void digest.check((_req: IncomingMessage, ok: ServerResponse) => ok.end(`hello ${(_req as IncomingMessage & { user?: string }).user}`))(req, res);
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

function reqflow(args: string[], input?: string): Promise<CliResult> {
  return runCli(args, { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: stateDir }, ...(input !== undefined ? { input } : {}) });
}

/** Runs a printed command with /bin/sh in the test folder, as a user pasting it would. */
function sh(command: string): Promise<CliResult> {
  return runShell('/bin/sh', command, { cwd: tmp.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
}

/** The parts of a digest answer that do not depend on the nonce or the client's cnonce. */
function digestFields(authorization: string | undefined): Record<string, string> {
  const fields = Object.fromEntries([...(authorization ?? '').matchAll(/(\w+)=(?:"([^"]*)"|([^\s,]+))/g)].map((m) => [m[1] as string, (m[2] ?? m[3]) as string]));
  return { scheme: (authorization ?? '').split(' ')[0] as string, username: fields.username ?? '', realm: fields.realm ?? '', uri: fields.uri ?? '', qop: fields.qop ?? '' };
}

withCurl.describe('--as curl: what the headers do not show', () => {
  withCurl.test('digest auth is --digest -u: curl answers the challenge as reqflow does; the password masked unless shown', async () => {
    const args = ['send', `${base}/zoo/den?x=1`, '--auth', 'digest', '-e', `username=${USER}`, '-e', `password=${PASSWORD}`];
    seen.length = 0;
    const sent = await reqflow([...args, '-o', 'raw']);
    expect({ code: sent.code, stdout: sent.stdout }).toEqual({ code: 0, stdout: `hello ${USER}` });
    const reqflowAnswer = seen.at(-1);

    const masked = await reqflow([...args, '--as', 'curl']);
    expect(masked.code).toBe(0);
    expect(masked.stdout).toContain(`  --digest -u '${USER}:•••' \\\n`);
    expect(masked.stdout).not.toContain(PASSWORD);

    const printed = await reqflow([...args, '--as', 'curl', '--show-secrets']);
    seen.length = 0;
    const curl = await sh(printed.stdout);
    expect({ code: curl.code, stdout: curl.stdout }).toEqual({ code: 0, stdout: `hello ${USER}` });
    // Both asked first without credentials, then answered the challenge with the same request.
    expect(seen.map((request) => request.headers.authorization === undefined)).toEqual([true, false]);
    const curlAnswer = seen.at(-1);
    const { authorization: _a, connection: _c, ...curlHeaders } = curlAnswer?.headers ?? {};
    const { authorization: _b, connection: _d, ...reqflowHeaders } = reqflowAnswer?.headers ?? {};
    expect({ method: curlAnswer?.method, url: curlAnswer?.url, headers: curlHeaders }).toEqual({ method: reqflowAnswer?.method, url: reqflowAnswer?.url, headers: reqflowHeaders });
    expect(digestFields(curlAnswer?.headers.authorization)).toEqual(digestFields(reqflowAnswer?.headers.authorization));

    // --as http writes the shorthand, which reqflow run - answers the challenge with.
    const block = await reqflow([...args, '--as', 'http', '--show-secrets']);
    expect(block.stdout).toContain(`\nAuthorization: Digest ${USER} ${PASSWORD}\n`);
    const replayed = await reqflow(['run', '-', '-o', 'raw'], block.stdout);
    expect({ code: replayed.code, stdout: replayed.stdout }).toEqual({ code: 0, stdout: `hello ${USER}` });
    expect((await reqflow([...args, '--dry-run'])).stdout).toContain('\nAuthorization: •••\n');
  });

  withCurl.test('a digest user name with ":" is refused by --as curl (curl\'s -u splits at it), exit 2 naming the request', async () => {
    const result = await reqflow(['send', `${base}/zoo`, '--auth', 'digest', '-e', 'username=a:b', '-e', `password=${PASSWORD}`, '--as', 'curl']);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
    expect(result.stderr).toContain('--as curl: the digest user name of "request-1" holds a ":", which curl\'s -u USER:PASSWORD cannot carry');
    expect(result.stderr).not.toContain(PASSWORD);
  });

  withCurl.test("a jar cookie with a byte past ASCII goes back from curl as that byte, as reqflow sends it", async () => {
    expect((await reqflow(['send', `${base}/login`])).code).toBe(0);
    seen.length = 0;
    expect((await reqflow(['send', `${base}/after`])).code).toBe(0);
    const printed = await reqflow(['send', `${base}/after`, '--as', 'curl', '--show-secrets']);
    expect((await sh(printed.stdout)).code).toBe(0);
    expect(seen.map((request) => request.headers.cookie)).toEqual(['c=caf\u00e9x', 'c=caf\u00e9x']);
    // Masked, nothing of it is printed.
    expect((await reqflow(['send', `${base}/after`, '--as', 'curl'])).stdout).toContain("-H 'Cookie: •••'");
  });
});
