/**
 * The terminal UI's history (`H`) over a send whose header a `-e` value made longer than the
 * history keeps: its row is marked `[cut]`, and the stored send, shown again, says what was cut.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tempDir } from './helpers/cli.js';
import { harnessPerTest, isolatedEnv, selectRequest, type Harness } from './helpers/tui-harness.js';

const LENGTH = 100_000; // over the 64 KiB a header value keeps

let server: Server;
let workspace: ReturnType<typeof tempDir>;
const startHarness = harnessPerTest();

beforeAll(async () => {
  server = createServer({ maxHeaderSize: 1024 * 1024 }, (req, res) => {
    res.end(`got ${req.headers['x-big']?.length ?? 0}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  workspace = tempDir('reqflow-tui-history-cut-');
  workspace.write('big.http', `### big\nGET http://127.0.0.1:${(server.address() as AddressInfo).port}/big\nX-Big: {{big}}\n`);
  workspace.write('.profiles.json', JSON.stringify([{ name: 'dev' }]));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  workspace.cleanup();
});

const open = (): Promise<Harness> => startHarness({ dir: workspace.dir, env: isolatedEnv(workspace.dir), variables: [`big=$(node -e 'process.stdout.write("x".repeat(${LENGTH}))')`], columns: 160, rows: 30 });

it('H marks a cut send [cut], and Enter shows it with a note naming what was cut', async () => {
  const first = await open();
  await selectRequest(first, 'big');
  await first.press('enter');
  await first.waitFor(`got ${LENGTH}`);
  await first.close();
  const h = await open(); // the list comes from the history store
  await h.press('H');
  const screen = await h.waitFor('History · dev · newest first');
  expect(screen.split('\n').find((line) => /GET\s+200/.test(line))).toMatch(/big {2}\[cut\]/);
  await h.press('enter');
  await h.waitFor(`warning: the history kept only the beginning of request header X-Big (${LENGTH} characters)`);
  expect(h.text()).toContain('from the history: sent');
});
