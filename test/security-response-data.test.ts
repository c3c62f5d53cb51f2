/**
 * Response data is never executed: a token that carries `$(...)`, backticks or `{{...}}` is
 * stored as text and sent back literally in later requests (same run and a later run), even
 * through a profile shell value that uses it. The server shows what arrived; marker files
 * show that no shell ran the text.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sessionFileFor } from './helpers/session-file.js';
import { project, type Project } from './helpers/auth-project.js';
import { startFaultServer, type FaultServer } from './helpers/fault-server.js';

let server: FaultServer;
let p: Project;
let markers: string[];
let token: string;

beforeAll(async () => {
  server = await startFaultServer();
  p = project();
  markers = ['dollar', 'backtick', 'quoted', 'env'].map((name) => join(p.dir, `pwned-${name}`));
  token = `$(touch ${markers[0]}) \`touch ${markers[1]}\` '; touch ${markers[2]}; ' {{env.HOME}} {{nope}} {{$uuid}} {{base64 x}} $(touch ${markers[3]}`;
  const login = encodeURIComponent(JSON.stringify({ access_token: token }));
  p.write(
    'flow.http',
    `### login
POST ${server.url}/json?body=${login}

### use
POST ${server.url}/use?t={{urlencode token}}
Authorization: Bearer {{token}}
X-Echo: {{token}}
X-Shell: {{viaShell}}
Content-Type: text/plain

{{token}}
`,
  );
  // A profile shell value that takes the token as an argument: it must arrive as one literal word.
  p.profiles([{ name: 'default', variables: { viaShell: "$(printf 'len=%s' \"$(printf %s {{token}} | wc -c | tr -d ' ')\")" } }]);
});

afterAll(async () => {
  await server.close();
  p.cleanup();
});

function lastUse(): { headers: Record<string, unknown>; body: string; url: string } {
  const use = server.requests.filter((r) => r.url.startsWith('/use')).at(-1);
  expect(use).toBeDefined();
  return use as { headers: Record<string, unknown>; body: string; url: string };
}

test('a token with shell and template syntax is stored and sent back literally', async () => {
  const result = await p.run(['run', '--trust', 'flow.http']);
  expect(result.code).toBe(0);
  expect(result.stderr).not.toMatch(/^reqflow: /m);
  // Stored as text.
  expect(JSON.parse(readFileSync(sessionFileFor(p.stateDir, p.dir), 'utf8')).variables.token).toBe(token);
  // Sent literally: header, body, query string.
  const use = lastUse();
  expect(use.headers.authorization).toBe(`Bearer ${token}`);
  expect(use.headers['x-echo']).toBe(token);
  expect(use.body).toBe(token);
  expect(new URL(use.url, 'http://x').searchParams.get('t')).toBe(token);
  // The shell value saw the whole token as one argument (its byte length), and ran nothing of it.
  expect(use.headers['x-shell']).toBe(`len=${Buffer.byteLength(token)}`);
  for (const marker of markers) expect(existsSync(marker)).toBe(false);
});

test('a later run reuses the stored token literally too', async () => {
  const result = await p.run(['run', '--trust', 'flow.http', '-n', 'use']);
  expect(result.code).toBe(0);
  const use = lastUse();
  expect(use.headers.authorization).toBe(`Bearer ${token}`);
  expect(use.body).toBe(token);
  for (const marker of markers) expect(existsSync(marker)).toBe(false);
});

test('-e values that mention the token do not make it evaluated', async () => {
  p.write('wrapped.http', `POST ${server.url}/use?wrapped\nX-Wrapped: {{wrapped}}\n`);
  const result = await p.run(['run', '--trust', 'wrapped.http', '-e', 'wrapped=<{{token}}>']);
  expect(result.code).toBe(0);
  expect(lastUse().headers['x-wrapped']).toBe(`<${token}>`);
  for (const marker of markers) expect(existsSync(marker)).toBe(false);
});
