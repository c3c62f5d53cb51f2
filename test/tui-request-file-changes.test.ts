/**
 * A request file changed under the UI while it has it open — rewritten, deleted, replaced by a
 * folder, a named pipe or a loop of symbolic links: Enter never sends the request as it was read
 * (a local server counts what arrives); the status bar says what happened in one line, the UI
 * runs on, and a rewritten file is sent as it is now on the next Enter.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './helpers/cli.js';
import { harnessPerTest, isolatedEnv, selectRequest, type Harness } from './helpers/tui-harness.js';

let server: Server;
let base: string;
const paths: string[] = [];
const startHarness = harnessPerTest();
const dirs: Array<ReturnType<typeof tempDir>> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    paths.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  for (const dir of dirs) dir.cleanup();
});

/** The UI over a folder with `api.http` (one request to /old) and `other.http`, `old` selected. */
async function open(): Promise<{ h: Harness; file: string }> {
  const dir = tempDir('reqflow-tui-file-changes-');
  dirs.push(dir);
  const file = dir.write('api.http', `### one\nGET ${base}/old\n`);
  dir.write('other.http', `### other\nGET ${base}/other\n`);
  const h = await startHarness({ dir: dir.dir, env: isolatedEnv(dir.dir), columns: 160 });
  await selectRequest(h, 'one');
  paths.length = 0;
  return { h, file };
}

describe('a request file changed while the UI has it open', () => {
  it('rewritten (same length): Enter does not send the old request; it reloads, and the next Enter sends what the file says now', async () => {
    const { h, file } = await open();
    writeFileSync(file, `### one\nGET ${base}/new\n`);
    await h.press('enter'); // before the folder watcher's reload, or after it: never /old
    await h.waitFor((s) => s.includes('GET') && s.includes(`${base}/new`));
    if (paths.length === 0) expect(h.status()).toContain('api.http changed since it was read: reloaded, not sent');
    await selectRequest(h, 'one');
    await h.press('enter');
    await h.waitFor('200 OK');
    expect(paths).not.toContain('/old');
    expect(paths).toContain('/new');
  });

  it.each([
    ['deleted', (file: string) => rmSync(file), 'api.http was deleted'],
    ['replaced by a folder', (file: string) => (rmSync(file), mkdirSync(file)), 'api.http is now a folder'],
    ['replaced by a named pipe', (file: string) => (rmSync(file), execFileSync('mkfifo', [file])), 'api.http is now a named pipe, not a file'],
    ['replaced by a loop of symbolic links', (file: string) => (rmSync(file), symlinkSync('api.http', file)), 'api.http is now a loop of symbolic links'],
  ])('%s: Enter sends nothing, one line says so, the UI runs on', async (_name, change, said) => {
    const { h, file } = await open();
    change(file);
    await h.press('enter');
    await h.waitFor((s) => (s.split('\n').pop() ?? '').includes(said));
    expect(h.status()).toMatch(/not sent|nothing is sent from it/);
    expect(paths).not.toContain('/old');
    await selectRequest(h, 'other');
    await h.press('enter');
    await h.waitFor('200 OK');
    expect(paths).toContain('/other');
    expect(paths).not.toContain('/old');
  });
});
