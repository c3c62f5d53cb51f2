/**
 * Secrets never leave their origin: on a redirect to another origin (scheme, host or port)
 * Authorization, Cookie, Proxy-Authorization, secret-named headers (API keys, signatures) and
 * headers carrying a secret value are dropped, and -v says so; tokens in a redirect's URL are
 * masked. A same-origin redirect keeps them.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
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

test('a password in the URL is masked everywhere it is shown', async () => {
  const file = tmp.write('userinfo.http', `GET http://ada:pa55word-xyz@127.0.0.1:1/x\n`);
  const listed = await runCli(['run', file, '--list']);
  expect(listed.stdout).toContain('http://ada:•••@127.0.0.1:1/x');
  const failed = await runCli(['run', file, '-o', 'json']);
  expect(failed.stdout + failed.stderr).not.toContain('pa55word-xyz');
});
