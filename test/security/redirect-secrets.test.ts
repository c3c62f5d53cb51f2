/**
 * Secrets never leave their origin: on a redirect to another origin (scheme, host or port)
 * Authorization, Cookie, Proxy-Authorization, secret-named headers (API keys, signatures) and
 * headers carrying a secret value are dropped, and so is every header an auth method added,
 * whatever its name; -v says so; tokens in a redirect's URL are masked. A same-origin redirect
 * keeps them.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli, tempDir } from '../helpers/cli.js';

const seen: Array<{ server: 'a' | 'b'; url: string; headers: IncomingHttpHeaders }> = [];
let a: Server;
let b: Server;
let aUrl = '';
let bUrl = '';
const tmp = tempDir('reqflow-redirect-');

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  b = createServer((req, res) => {
    seen.push({ server: 'b', url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('landed');
  });
  bUrl = await listen(b);
  a = createServer((req, res) => {
    seen.push({ server: 'a', url: req.url ?? '', headers: req.headers });
    if (req.url === '/cross') return void res.writeHead(302, { Location: `${bUrl}/landing?access_token=leaked-token-123&x=1` }).end();
    if (req.url === '/same') return void res.writeHead(307, { Location: '/same-target' }).end();
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('same origin');
  });
  aUrl = await listen(a);
});
afterAll(async () => {
  await Promise.all([a, b].map((server) => new Promise((resolve) => server.close(resolve))));
  tmp.cleanup();
});

const request = (path: string): string =>
  `GET ${aUrl}${path}\nAuthorization: Bearer tok-secret-value-1\nX-Api-Key: key-1234567890\nX-Team-Sig: {{teamSignature}}\nX-Relay: {{relay}}\nCookie: session=cookie-value-9\nX-Plain: visible\n`;

test('a redirect to another origin carries none of the secrets, and -v says which were dropped', async () => {
  const before = seen.length;
  const file = tmp.write('cross.http', request('/cross'));
  const result = await runCli(['run', file, '-L', '-v', '-e', 'teamSignature=sig-abcdef-123', '-e', 'apiSecret=relay-secret-42', '-e', 'relay={{apiSecret}}'], { env: { REQFLOW_STATE_DIR: `${tmp.dir}/state` } });
  expect(result.code).toBe(0);
  const landed = seen.slice(before).find((r) => r.server === 'b');
  expect(landed?.headers['x-plain']).toBe('visible');
  for (const name of ['authorization', 'x-api-key', 'x-team-sig', 'x-relay', 'cookie', 'proxy-authorization']) expect(landed?.headers[name]).toBeUndefined();
  expect(result.stderr).toMatch(/reqflow: redirected to http:\/\/127\.0\.0\.1:\d+\/landing\?access_token=•••&x=1; not sent there \(another origin\): Authorization, X-Api-Key, X-Team-Sig, X-Relay, Cookie/);
  for (const secret of ['tok-secret-value-1', 'key-1234567890', 'sig-abcdef-123', 'relay-secret-42', 'cookie-value-9', 'leaked-token-123']) expect(result.stdout + result.stderr).not.toContain(secret);
});

test('a redirect within the origin keeps the headers', async () => {
  const before = seen.length;
  const file = tmp.write('same.http', request('/same'));
  const result = await runCli(['run', file, '-L', '-e', 'teamSignature=sig-abcdef-123', '-e', 'relay=r'], { env: { REQFLOW_STATE_DIR: `${tmp.dir}/state` } });
  expect(result.code).toBe(0);
  const target = seen.slice(before).find((r) => r.url === '/same-target');
  expect(target?.headers.authorization).toBe('Bearer tok-secret-value-1');
  expect(target?.headers['x-team-sig']).toBe('sig-abcdef-123');
});

test('every header an auth method adds is a credential, whatever its name: not sent to another origin, masked wherever shown', async () => {
  const profiles = tmp.write('auth-profiles.json', JSON.stringify([
    // X-Nonce's value is too short to scrub from free text, yet it is dropped by its name.
    { name: 'signed', variables: { proof: 'hmac-5f2c9a0e77d1' }, auth: { type: 'custom', headers: { 'X-Proof': '{{proof}}', 'X-Timestamp': '1700000000', 'X-Nonce': 'n1' } } },
    { name: 'keyed', variables: { clientIdent: 'ident-0a1b2c3d' }, auth: { type: 'apikey', header: 'X-Client-Ident', variable: 'clientIdent' } },
  ]));
  const state = `${tmp.dir}/state-auth-headers`;
  const reqflow = (path: string, ...args: string[]) => runCli(['run', tmp.write(`auth${path}.http`, `GET ${aUrl}${path}\nX-Plain: visible\n`), '--profiles', profiles, ...args], { env: { REQFLOW_STATE_DIR: state } });
  const secrets = ['hmac-5f2c9a0e77d1', '1700000000', 'ident-0a1b2c3d'];
  for (const [profile, dropped] of [['signed', 'X-Proof, X-Timestamp, X-Nonce'], ['keyed', 'X-Client-Ident']] as const) {
    const before = seen.length;
    const result = await reqflow('/cross', '-p', profile, '-L', '-v');
    expect(result.code).toBe(0);
    const landed = seen.slice(before).find((r) => r.server === 'b');
    expect(landed?.headers['x-plain']).toBe('visible');
    for (const name of ['x-proof', 'x-timestamp', 'x-nonce', 'x-client-ident']) expect(landed?.headers[name]).toBeUndefined();
    expect(result.stderr).toContain(`; not sent there (another origin): ${dropped}\n`);
    for (const name of dropped.split(', ').filter((n) => n !== 'X-Nonce')) expect(result.stderr).toContain(`\n${name}: •••\n`);
    for (const secret of secrets) expect(result.stdout + result.stderr).not.toContain(secret);
  }
  for (const shown of [await reqflow('/cross', '-p', 'signed', '--dry-run'), await reqflow('/cross', '-p', 'signed', '--as', 'curl'), await reqflow('/cross', '-p', 'signed', '-o', 'json')]) {
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/X-Proof["']?: ?["']?•••/);
    for (const secret of secrets) expect(shown.stdout + shown.stderr).not.toContain(secret);
  }
  const history = readdirSync(`${state}/history`, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  expect(history.length).toBeGreaterThan(0);
  for (const entry of history) for (const secret of secrets) expect(readFileSync(`${entry.parentPath}/${entry.name}`, 'utf8')).not.toContain(secret);
  // Within the origin they are the request's credentials as before.
  const before = seen.length;
  expect((await reqflow('/same', '-p', 'signed', '-L')).code).toBe(0);
  expect(seen.slice(before).find((r) => r.url === '/same-target')?.headers).toMatchObject({ 'x-proof': 'hmac-5f2c9a0e77d1', 'x-timestamp': '1700000000', 'x-nonce': 'n1' });
});

test('a password in the URL is masked everywhere it is shown', async () => {
  const file = tmp.write('userinfo.http', `GET http://ada:pa55word-xyz@127.0.0.1:1/x\n`);
  const listed = await runCli(['run', file, '--list']);
  expect(listed.stdout).toContain('http://ada:•••@127.0.0.1:1/x');
  const failed = await runCli(['run', file, '-o', 'json']);
  expect(failed.stdout + failed.stderr).not.toContain('pa55word-xyz');
});
