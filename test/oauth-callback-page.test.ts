/**
 * The browser's page at the end of `reqflow oauth login` tells the truth: "Logged in" only once
 * the code became a token; a failed token exchange says so (with the OAuth error, never the
 * code or the client secret), and the CLI fails with the error. A small fake authorization
 * server whose token endpoint answers what each test wants; the browser's redirect by hand.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { project, type Project } from './helpers/auth-project.js';
import { startCli } from './helpers/cli-live.js';

const CLIENT_SECRET = 'cs-very-secret-4d3c2b1a';
const CODE = 'code-from-the-browser-77aa';
let answer: { status: number; body: unknown } = { status: 200, body: {} };
let idp: Server;
let idpUrl: string;

beforeAll(async () => {
  idp = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url !== '/token') return void res.writeHead(404).end();
      // Slow enough that a page written before the exchange would be caught saying "Logged in".
      setTimeout(() => {
        res.writeHead(answer.status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
        res.end(JSON.stringify(answer.body));
      }, 200);
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
  p = project();
  p.profiles([{ name: 'cb', oauth: { clientId: 'cli-confidential', clientSecret: CLIENT_SECRET, authUrl: `${idpUrl}/auth`, tokenUrl: `${idpUrl}/token`, redirectUrl: 'http://127.0.0.1:0/callback' } }]);
});
afterEach(() => p.cleanup());

async function loginAndReturn(): Promise<{ page: { status: number; text: string }; result: { code: number | null; stdout: string; stderr: string } }> {
  const cli = startCli(['oauth', 'login', '-p', 'cb', '--no-browser'], { cwd: p.dir, env: { REQFLOW_STATE_DIR: p.stateDir } });
  const [, url = ''] = await cli.waitForStderr(/^\s+(http\S+\/auth\?\S+)$/m);
  const auth = new URL(url);
  const redirect = auth.searchParams.get('redirect_uri') as string;
  const response = await fetch(`${redirect}?code=${CODE}&state=${encodeURIComponent(auth.searchParams.get('state') as string)}`);
  const page = { status: response.status, text: await response.text() };
  return { page, result: await cli.done };
}

test('a refused token exchange: the page says the login failed and why, without the code or the secret', async () => {
  answer = { status: 400, body: { error: 'invalid_grant', error_description: 'the code was already used' } };
  const { page, result } = await loginAndReturn();
  expect(page.status).toBe(502);
  expect(page.text).toContain('<h1>Login failed</h1>');
  expect(page.text).toContain('the token exchange failed');
  expect(page.text).toContain('invalid_grant');
  expect(page.text).not.toContain('Logged in');
  for (const secret of [CODE, CLIENT_SECRET]) {
    expect(page.text).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
  expect(result.code).toBe(6);
  expect(result.stderr).toContain('invalid_grant');
});

test('a token: the page says logged in once the token is there', async () => {
  answer = { status: 200, body: { access_token: 'at-page-test-1a2b3c4d5e6f', token_type: 'Bearer', expires_in: 3600 } };
  const { page, result } = await loginAndReturn();
  expect(page.status).toBe(200);
  expect(page.text).toContain('<h1>Logged in</h1>');
  expect(page.text).toContain('received the token');
  expect(result.code).toBe(0);
});
