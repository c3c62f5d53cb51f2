/**
 * The OAuth callback server of `reqflow oauth login` (authorization code + PKCE), against a
 * small fake authorization server, with the browser's redirect made by hand. It adds to
 * test/oauth-login.test.ts (which covers a wrong state ending the login without a token, the
 * port in use, and unsafe redirect URLs) what a security review asks for:
 * - loopback only: the callback port answers on 127.0.0.1 and on no other address;
 * - one use: a second callback is not served, and the code is exchanged exactly once;
 * - the PKCE verifier (and the tokens) never appear in any output, even with --debug, nor in
 *   any file reqflow writes; the verifier matches the S256 challenge;
 * - a wrong-state callback's code never reaches the token endpoint;
 * - requests that are not the callback (other paths, POST, no code) do not end the wait.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { project, type Project } from './helpers/auth-project.js';
import { startCli, type LiveCli } from './helpers/cli-live.js';

interface TokenCall {
  form: URLSearchParams;
}

let idp: Server;
let idpUrl: string;
const tokenCalls: TokenCall[] = [];
const ACCESS = 'at-callback-test-5f1e2d3c4b5a';
const REFRESH = 'rt-callback-test-9a8b7c6d5e4f';

beforeAll(async () => {
  idp = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/token' && req.method === 'POST') {
        tokenCalls.push({ form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
        res.end(JSON.stringify({ access_token: ACCESS, token_type: 'Bearer', expires_in: 3600, refresh_token: REFRESH, scope: 'read' }));
        return;
      }
      res.writeHead(404);
      res.end();
    });
  });
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
  idpUrl = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
});

afterAll(async () => {
  idp.closeAllConnections();
  await new Promise((resolve) => idp.close(resolve));
});

let p: Project;
beforeEach(() => {
  tokenCalls.length = 0;
  p = project();
  p.profiles([{ name: 'cb', oauth: { clientId: 'cli-public', authUrl: `${idpUrl}/auth`, tokenUrl: `${idpUrl}/token`, redirectUrl: 'http://127.0.0.1:0/callback', scope: 'read' } }]);
});
afterEach(() => p.cleanup());

async function startLogin(extra: string[] = []): Promise<{ cli: LiveCli; auth: URL; redirect: URL; state: string }> {
  const cli = startCli(['oauth', 'login', '-p', 'cb', '--no-browser', ...extra], { cwd: p.dir, env: { REQFLOW_STATE_DIR: p.stateDir } });
  const [, url = ''] = await cli.waitForStderr(/^\s+(http\S+\/auth\?\S+)$/m);
  const auth = new URL(url);
  return { cli, auth, redirect: new URL(auth.searchParams.get('redirect_uri') as string), state: auth.searchParams.get('state') as string };
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 1000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

test('loopback only, one use, and the PKCE verifier and tokens never shown or stored in the clear elsewhere', async () => {
  const { cli, auth, redirect, state } = await startLogin(['--debug']);
  const port = Number(redirect.port);
  expect(redirect.hostname).toBe('127.0.0.1');
  expect(auth.searchParams.get('code_challenge_method')).toBe('S256');

  // Loopback only: no other address of this machine answers on the callback port.
  expect(await canConnect('127.0.0.1', port)).toBe(true);
  const others = Object.values(networkInterfaces()).flat().filter((a) => a && !a.internal && a.family === 'IPv4').map((a) => a?.address as string);
  for (const address of others) expect(await canConnect(address, port)).toBe(false);

  // The browser comes back twice (a double submit, or a replay): only one is served.
  const callback = `${redirect.href}?code=good-code&state=${encodeURIComponent(state)}`;
  const answers = await Promise.allSettled([fetch(callback), fetch(callback)]);
  const statuses = await Promise.all(answers.map(async (a) => (a.status === 'fulfilled' ? `${a.value.status} ${(await a.value.text()).includes('Logged in') ? 'logged-in' : ''}`.trim() : 'refused')));
  expect(statuses.filter((s) => s === '200 logged-in')).toHaveLength(1);
  const result = await cli.done;
  expect(result.code).toBe(0);
  // The code was exchanged exactly once, with a verifier that matches the S256 challenge.
  expect(tokenCalls).toHaveLength(1);
  const form = (tokenCalls[0] as TokenCall).form;
  expect(form.get('code')).toBe('good-code');
  const verifier = form.get('code_verifier') as string;
  expect(verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
  expect(createHash('sha256').update(verifier).digest('base64url')).toBe(auth.searchParams.get('code_challenge'));

  // After the one callback, the port is closed.
  let open = true;
  for (let i = 0; i < 20 && open; i++) {
    open = await canConnect('127.0.0.1', port);
    if (open) await new Promise((r) => setTimeout(r, 100));
  }
  expect(open).toBe(false);

  // Never shown, even with --debug; `oauth status` masks the token.
  const status = await p.run(['oauth', 'status', '-p', 'cb', '--debug']);
  for (const text of [result.stdout, result.stderr, status.stdout, status.stderr]) {
    expect(text).not.toContain(verifier);
    expect(text).not.toContain(ACCESS);
    expect(text).not.toContain(REFRESH);
  }
  // The verifier is not kept anywhere; the tokens only in the session file (0600).
  const files = filesUnder(p.stateDir);
  for (const file of files) expect(readFileSync(file, 'utf8')).not.toContain(verifier);
  const holding = files.filter((file) => readFileSync(file, 'utf8').includes(ACCESS));
  expect(holding).toHaveLength(1);
  expect(statSync(holding[0] as string).mode & 0o777).toBe(0o600);
  for (const file of filesUnder(p.dir).filter((f) => !f.startsWith(p.stateDir))) expect(readFileSync(file, 'utf8')).not.toContain(ACCESS);
});

test("a wrong-state callback is refused, its code never reaches the token endpoint, and the login goes on waiting for the right one", async () => {
  const { cli, redirect, state } = await startLogin();
  const forged = await fetch(`${redirect.href}?code=stolen-code&state=forged-state`);
  expect(forged.status).toBe(400);
  expect(await forged.text()).toContain('state mismatch');
  await cli.waitForStderr(/still waiting for yours/);
  expect(tokenCalls).toHaveLength(0);
  // The stray request did not abort the login: the user's own callback still completes it.
  const ok = await fetch(`${redirect.href}?code=good-code&state=${encodeURIComponent(state)}`);
  expect(ok.status).toBe(200);
  const result = await cli.done;
  expect(result.code).toBe(0);
  expect(tokenCalls.map((call) => call.form.get('code'))).toEqual(['good-code']);
  expect(filesUnder(p.dir).some((f) => readFileSync(f, 'utf8').includes('stolen-code'))).toBe(false);
});

test('a callback without any state is refused the same way, and the wait goes on until the time-out', async () => {
  const { cli, redirect } = await startLogin(['--wait', '2']);
  expect((await fetch(`${redirect.href}?code=stateless-code`)).status).toBe(400);
  const result = await cli.done;
  expect(result.code).toBe(6);
  expect(result.stderr).not.toMatch(/state mismatch/);
  expect(tokenCalls).toHaveLength(0);
});

test('requests that are not the callback do not end the wait', async () => {
  const { cli, redirect, state } = await startLogin();
  expect((await fetch(new URL('/favicon.ico', redirect))).status).toBe(404);
  expect((await fetch(`${redirect.href}?hello=1`)).status).toBe(400);
  expect((await fetch(`${redirect.href}?code=x&state=${encodeURIComponent(state)}`, { method: 'POST' })).status).toBe(405);
  expect(tokenCalls).toHaveLength(0);
  const ok = await fetch(`${redirect.href}?code=good-code&state=${encodeURIComponent(state)}`);
  expect(ok.status).toBe(200);
  const result = await cli.done;
  expect(result.code).toBe(0);
  expect(tokenCalls).toHaveLength(1);
});
