/**
 * A secret in a derived form is masked wherever the secret itself is: the attacker here is a
 * server that echoes what it was sent — base64 (standard and url-safe, padded or not, alone or
 * inside a longer base64 text at each of the 3 byte alignments), form- and percent-encoded,
 * JSON-escaped, and a Basic header's decoded `user:password` — in response headers (shown by
 * `-v` and `-o json`), in bodies (kept in the history) and in error messages (a failed check, a
 * token endpoint's error quoting the refresh token). The forms are worked out here, not with
 * reqflow's own code, so a form reqflow forgot fails the test.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { historyFileFor } from './helpers/history-file.js';
import { project, type Project } from './helpers/auth-project.js';

const SECRET = "Cl1ent/S3cret+wörd ~it's-long!";
const USER = 'client-app';
const REFRESH = 'RT-refresh/token+Zz9_Yy8-Xx7';

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const b64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
/** A longer base64 text holding `secret` after `before` bytes: what a server's base64 blob looks like. */
const embedded = (secret: string, before: number): string => b64(`${'x'.repeat(before)}{"client_secret":"${secret}","n":1}`);
const asciiJson = (text: string): string => JSON.stringify(text).slice(1, -1).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Every form the server echoes, named; the test looks for each in reqflow's output. */
function derived(secret: string): Record<string, string> {
  const forms: Record<string, string> = {
    raw: secret,
    base64: b64(secret),
    'base64 unpadded': b64(secret).replace(/=+$/, ''),
    base64url: b64url(secret),
    'base64url padded': b64(secret).replace(/\+/g, '-').replace(/\//g, '_'),
    percent: encodeURIComponent(secret),
    form: new URLSearchParams([['', secret]]).toString().slice(1),
    json: JSON.stringify(secret).slice(1, -1),
    'json ascii': asciiJson(secret),
    'json slashes': asciiJson(secret).replace(/\//g, '\\/'),
  };
  for (const before of [0, 1, 2]) forms[`inside base64 at ${before}`] = embedded(secret, before);
  return forms;
}

/** The part of a form that must not appear: for base64 inside a longer text, its 3-byte groups wholly in the secret. */
function leaks(text: string, secret: string): string[] {
  const found: string[] = [];
  for (const [name, form] of Object.entries(derived(secret))) if (text.includes(form)) found.push(name);
  const bytes = Buffer.from(secret, 'utf8');
  for (let before = 0; before < 3; before++) {
    const stable = Buffer.concat([Buffer.alloc(before), bytes]).toString('base64').slice(before > 0 ? 4 : 0, Math.floor((before + bytes.length) / 3) * 4);
    for (const alphabet of [stable, stable.replace(/\+/g, '-').replace(/\//g, '_')]) if (text.includes(alphabet)) found.push(`base64 at alignment ${before}`);
  }
  return found;
}

const ECHOED = [SECRET, `${USER}:${SECRET}`];
let server: Server;
let base: string;
let p: Project;
let tokenRequests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/token') {
        tokenRequests++;
        // A token endpoint that quotes the refresh token (and the client secret it was sent) in its error.
        res.writeHead(400, { 'Content-Type': 'application/json' });
        return res.end(JSON.stringify({ error: 'invalid_grant', error_description: `refresh token ${REFRESH} (${b64(REFRESH)}) is revoked for ${SECRET}` }));
      }
      // The secret comes from the request itself: the Basic header, decoded.
      const basic = Buffer.from(String(req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString('utf8');
      const secret = basic.slice(basic.indexOf(':') + 1);
      const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Echo-Credentials': b64(basic), 'X-Echo-Decoded-Basic': encodeURIComponent(basic) };
      for (const [name, form] of Object.entries(derived(secret))) headers[`X-Echo-${name.replace(/ /g, '-')}`] = form.replace(/[^\x20-\x7e]/g, '?') === form ? form : encodeURIComponent(form);
      const body = req.url === '/headers' ? '{"ok":true}' : JSON.stringify({ error: 'invalid_client', echoed: derived(secret), basic, note: `client ${basic} refused` });
      res.writeHead(req.url === '/headers' ? 200 : 401, headers);
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  p = project();
  p.profiles([{ name: 'dev', variables: { baseUrl: base, clientId: USER, clientSecret: SECRET } }]);
  p.write(
    'echo.http',
    `### headers
GET {{baseUrl}}/headers
Authorization: Basic {{clientId}}:{{clientSecret}}

### body
POST {{baseUrl}}/body
Authorization: Basic {{clientId}} {{clientSecret}}

?? status == 200
?? body note == ok
`,
  );
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  p.cleanup();
});

describe('a server echoing a secret in derived forms', () => {
  test('-v: the echoed headers show none of them, yet the server got the secret', async () => {
    const result = await p.run(['run', 'echo.http', '-p', 'dev', '-n', 'headers', '-v']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^X-Echo-Credentials: •••$/im);
    for (const secret of ECHOED) expect(leaks(result.stdout + result.stderr, secret)).toEqual([]);
  });

  test('-o json: neither in the records nor on stderr', async () => {
    const result = await p.run(['run', 'echo.http', '-p', 'dev', '-n', 'headers', '-o', 'json']);
    expect(result.code).toBe(0);
    const record = JSON.parse(result.stdout.trim().split('\n').find((line) => line.startsWith('{"type":"response"'))!) as { headers: Record<string, string> };
    expect(record.headers['x-echo-base64']).toBe('•••');
    for (const secret of ECHOED) expect(leaks(result.stdout + result.stderr, secret)).toEqual([]);
  });

  test('the history and the failed check: the body echoing every form is kept masked', async () => {
    const result = await p.run(['run', 'echo.http', '-p', 'dev', '-n', 'body', '-o', 'json']);
    expect(result.code).not.toBe(0);
    const records = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; test?: { message?: string } });
    const messages = records.filter((record) => record.type === 'test' || record.type === 'error').map((record) => JSON.stringify(record));
    expect(messages.join('\n')).toContain('•••'); // the check quotes the body's note, masked
    for (const secret of ECHOED) expect(leaks(messages.join('\n') + result.stderr, secret)).toEqual([]);
    const history = readFileSync(historyFileFor(p.stateDir, p.dir, 'dev'), 'utf8');
    expect(history).toContain('invalid_client'); // the body is there…
    for (const secret of ECHOED) expect(leaks(history, secret)).toEqual([]); // …without the secret in any form
  });
});

test('a token endpoint quoting the refresh token in its error: the message masks it', async () => {
  const oauth = project();
  try {
    oauth.profiles([{ name: 'api', variables: { baseUrl: base }, oauth: { clientId: USER, clientSecret: SECRET, tokenUrl: `${base}/token`, authUrl: `${base}/authorize`, clientAuth: 'post' } }]);
    oauth.seedSession('api', { token: 'expired-access-token' }, { oauth: { grant: 'authorization_code', clientId: USER, tokenType: 'Bearer', obtainedAt: new Date(Date.now() - 7_200_000).toISOString(), expiresAt: new Date(Date.now() - 3_600_000).toISOString(), refreshToken: REFRESH } });
    oauth.write('api.http', 'GET {{baseUrl}}/headers\nAuthorization: Bearer {{token}}\n');
    const before = tokenRequests;
    const result = await oauth.run(['run', 'api.http', '-p', 'api', '-v']);
    expect(tokenRequests).toBe(before + 1); // the refresh was tried
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^reqflow: cannot refresh the OAuth token of profile "api": .*invalid_grant.*•••/m);
    for (const secret of [REFRESH, SECRET]) expect(leaks(result.stdout + result.stderr, secret)).toEqual([]);
  } finally {
    oauth.cleanup();
  }
});
