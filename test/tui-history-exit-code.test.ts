/**
 * The terminal UI's history (`H`) over a failed send whose entry records no exit code (edited by
 * hand, or written by an older reqflow — the reader accepts it): the response pane says so, as
 * `reqflow history show` does, never "exits with 70" (an internal error's code, which it is not).
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tempDir } from './helpers/cli.js';
import { historyFileFor } from './helpers/history-file.js';
import { harnessPerTest, isolatedEnv, selectRequest, type Harness } from './helpers/tui-harness.js';

let server: Server;
let workspace: ReturnType<typeof tempDir>;
const startHarness = harnessPerTest();

beforeAll(async () => {
  // Every connection reset before an answer: a network error (exit 4), recorded with its exit code.
  server = createServer();
  server.on('connection', (socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  workspace = tempDir('reqflow-tui-history-exit-');
  workspace.write('down.http', `### down\nGET http://127.0.0.1:${(server.address() as AddressInfo).port}/down\n`);
  workspace.write('.profiles.json', JSON.stringify([{ name: 'dev' }]));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  workspace.cleanup();
});

const open = (): Promise<Harness> => startHarness({ dir: workspace.dir, env: isolatedEnv(workspace.dir), columns: 160, rows: 30 });

it('a restored error whose entry has no exitCode says "the history recorded no exit code", not exit 70', async () => {
  const first = await open();
  await selectRequest(first, 'down');
  await first.press('enter');
  await first.waitFor('(reqflow run exits with 4 for this)');
  await first.close();
  // The entry as an older reqflow wrote it, or as edited by hand: its error without exitCode.
  const file = historyFileFor(`${workspace.dir}/state`, workspace.dir, 'dev');
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  const entry = JSON.parse(lines[0] as string) as { error?: { message: string; exitCode?: number } };
  expect(entry.error?.exitCode).toBe(4);
  delete entry.error?.exitCode;
  writeFileSync(file, `${JSON.stringify(entry)}\n`);

  const h = await open(); // the list comes from the history store
  await h.press('H');
  await h.waitFor('History · dev · newest first');
  await h.press('enter');
  const screen = await h.waitFor('(the history recorded no exit code for this)');
  expect(screen).toContain('from the history: sent');
  expect(screen).toContain(`✗ ${entry.error?.message ?? ''}`); // connection to 127.0.0.1:PORT was reset
  expect(screen).not.toMatch(/exits with/);
});
