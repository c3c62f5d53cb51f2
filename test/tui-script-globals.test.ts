/**
 * The TUI keeps script globals as the CLI does: a handler's `client.global.set` in one file is
 * sent by a request of another file, and kept in the project's session for later runs.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';
import { harnessPerTest, isolatedEnv, selectRequest } from './helpers/tui-harness.js';

let server: Recorder;
const workspace = tempDir('reqflow-tui-globals-');
const startHarness = harnessPerTest();

beforeAll(async () => {
  server = await startRecorder((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(req.url === '/login' ? '{"data": {"token": "tui-tok-9876"}}' : '{"ok": true}');
  });
  workspace.write('http-client.env.json', '{}');
  workspace.write('auth.http', `# @name login\nPOST ${server.url}/login\n\n> {% client.global.set("AUTHORIZATION", "Bearer " + response.body.data.token); %}\n`);
  workspace.write('store.http', `# @name store\nGET ${server.url}/store\nAuthorization: {{AUTHORIZATION}}\n`);
});
afterAll(async () => {
  await server.close();
  workspace.cleanup();
});

/** The text of every session file under the state folder. */
function findSession(state: string): string {
  const dir = join(state, 'sessions');
  if (!existsSync(dir)) return '';
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}


describe('script globals in the TUI', () => {
  it("a login handler's global is sent by another file's request, and kept for a later CLI run", async () => {
    const env = isolatedEnv(workspace.dir);
    const h = await startHarness({ dir: workspace.dir, env });
    await selectRequest(h, 'login');
    await h.press('enter');
    await h.waitFor('tui-tok-9876');
    // The session is saved after the response is shown: wait for it (bounded).
    for (let i = 0; i < 100 && !findSession(env.REQFLOW_STATE_DIR as string).includes('tui-tok-9876'); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(findSession(env.REQFLOW_STATE_DIR as string)).toContain('reqflow.globals');
    await selectRequest(h, 'store');
    await h.press('enter');
    await h.waitFor('"ok"');
    expect(server.received.at(-1)?.headers.authorization).toBe('Bearer tui-tok-9876');
    await h.close();
    const later = await runCli(['run', join(workspace.dir, 'store.http')], { env, cwd: workspace.dir });
    expect(later.code).toBe(0);
    expect(server.received.at(-1)?.headers.authorization).toBe('Bearer tui-tok-9876');
  });
});
