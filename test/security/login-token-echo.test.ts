/**
 * A token a login response hands over (stored in the session as `{{token}}`) is a secret from the
 * moment it is taken: the same response quoting it elsewhere (a note), and later requests echoing
 * it, are masked in the history and on the screen. Only the `token` field was masked before.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { historyFileFor } from '../helpers/history-file.js';
import { startRecorder, type Recorder } from '../helpers/recorder.js';

const TOKEN = 'Zq9mLongTokenValue123';
const tmp = tempDir('reqflow-login-token-echo-');
const stateDir = join(tmp.dir, 'state');
let server: Recorder;

beforeAll(async () => {
  server = await startRecorder((req, res) => {
    const t = new URL(req.url ?? '/', 'http://x').searchParams.get('t') ?? '';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(req.url?.startsWith('/login') ? JSON.stringify({ token: t, user: { note: `your session is ${t}` } }) : JSON.stringify({ echo: req.headers.authorization ?? '' }));
  });
  tmp.write('.profiles.json', '[]');
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const run = (...args: string[]) => runCli(args, { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: stateDir } });

describe('a token taken from a login response', () => {
  test('is masked wherever the run shows or keeps it again, in this run and the next', async () => {
    // The query tells the server which token to hand over; the run knows it only from the answer.
    const file = tmp.write('login.http', `### login\nPOST ${server.url}/login?t=${TOKEN}\n`);
    const first = await run('run', file, '-o', 'raw');
    expect(first.code).toBe(0);
    const echo = tmp.write('echo.http', `### me\nGET ${server.url}/me\nAuthorization: Bearer {{token}}\n`);
    const second = await run('run', echo, '-v');
    expect(second.code).toBe(0);
    // -v shows the request and headers masked (a response body on stdout is the user's own, shown as it came: security.md).
    expect(second.stderr).not.toContain(TOKEN);
    const history = readFileSync(historyFileFor(stateDir, tmp.dir), 'utf8');
    expect(history).toContain('your session is •••');
    expect(history).not.toContain(TOKEN);
    expect(server.received.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });
});
