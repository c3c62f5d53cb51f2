/**
 * The session's contents do not depend on the output mode: a login response's token is taken
 * from a buffered body (`-o json`) exactly as from a streamed one (`-o raw`, pretty on a pipe).
 * A token in a response over the capture limit (1 MiB) is refused alike in every mode, with the
 * same one-line warning, and the session keeps what it had.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { diagnostics, project, type Project } from './helpers/auth-project.js';
import { sessionFileFor } from './helpers/session-file.js';

const MIB = 1024 * 1024;
const MODES: Record<string, string[]> = { pretty: [], json: ['-o', 'json'], raw: ['-o', 'raw'] };

let server: Server;
let p: Project;

/** A login response whose whole body is `bytes` long: `{"access_token":"ttt…"}`. */
const tokenOfBody = (bytes: number): string => 't'.repeat(bytes - '{"access_token":""}'.length);

beforeAll(async () => {
  server = createServer((req, res) => {
    const bytes = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('bytes'));
    const body = JSON.stringify({ access_token: tokenOfBody(bytes) });
    res.writeHead(200, { 'Content-Type': 'application/json' }); // chunked: no length known before the end
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  p = project();
  p.write('login.http', `### at-limit\nPOST ${base}/login?bytes=${MIB}\n\n### over-limit\nPOST ${base}/login?bytes=${MIB + 100 * 1024}\n`);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  p.cleanup();
});

const sessionToken = (): string | undefined => {
  const path = sessionFileFor(p.stateDir, p.dir);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { variables: Record<string, string> }).variables.token : undefined;
};

describe.each(Object.entries(MODES))('-o %s', (_mode, flags) => {
  test('a 1 MiB login response: its token is stored', async () => {
    rmSync(sessionFileFor(p.stateDir, p.dir), { force: true });
    const result = await p.run(['run', 'login.http', '-n', 'at-limit', ...flags]);
    expect(result.code).toBe(0);
    expect(diagnostics(result.stderr)).toEqual([]);
    expect(sessionToken()).toBe(tokenOfBody(MIB));
  });

  test('over 1 MiB: refused with one line, the stored token kept', async () => {
    p.seedSession('default', { token: 'earlier-token' });
    const result = await p.run(['run', 'login.http', '-n', 'over-limit', ...flags]);
    expect(result.code).toBe(0);
    expect(diagnostics(result.stderr)).toEqual(['reqflow: warning: the response is over 1 MiB: its token was not stored in the session']);
    expect(sessionToken()).toBe('earlier-token');
  });
});
