/**
 * `L`, a stress run from the terminal UI, headless against a local server that counts what it
 * receives: the form, the run with `reqflow stress`'s engine, progress in the status bar, the
 * result table, Esc stopping a run, and a duration's run against a server that drips its body
 * ending 5 s after its duration, as `reqflow stress -d` does.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tempDir } from './helpers/cli.js';
import { harnessPerTest, type Harness, isolatedEnv } from './helpers/tui-harness.js';

let server: Server;
let hits = 0;
let workspace: ReturnType<typeof tempDir>;
let dripping: ReturnType<typeof tempDir>;
const drips = new Set<NodeJS.Timeout>();
const startHarness = harnessPerTest();

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hit') {
      const n = ++hits; // every fifth request fails
      return void setTimeout(() => res.writeHead(n % 5 === 0 ? 503 : 200, { 'content-type': 'application/json' }).end('{"ok":true}'), 5);
    }
    if (req.url === '/drip') {
      // A byte every 100 ms of a million: each restarts the idle time-out, the body never ends.
      res.writeHead(200, { 'content-length': '1000000' });
      const drip = setInterval(() => res.write('a'), 100);
      drips.add(drip);
      return void res.once('close', () => (clearInterval(drip), drips.delete(drip)));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  workspace = tempDir('reqflow-tui-stress-');
  workspace.write('load.http', ['### hit', `GET ${base}/hit`, ''].join('\n'));
  dripping = tempDir('reqflow-tui-stress-drip-');
  dripping.write('drip.http', ['### drip', `GET ${base}/drip`, ''].join('\n'));
});

afterAll(async () => {
  for (const drip of drips) clearInterval(drip);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  workspace.cleanup();
  dripping.cleanup();
});

async function stressForm(dir = workspace.dir, name = 'hit'): Promise<Harness> {
  const h = await startHarness({ dir, env: isolatedEnv(dir) });
  for (let i = 0; i < 5 && !new RegExp(`Request · ${name}\\b`).test(h.text()); i++) await h.press('j');
  await h.press('L');
  await h.waitFor(new RegExp(`Stress ${name}: workers`));
  await h.press('C-u'); // the suggested "10 10s" goes
  return h;
}

describe('L, stress from the UI', () => {
  it('runs N requests with the given workers and shows the table', async () => {
    hits = 0;
    const h = await stressForm();
    await h.type('4 40');
    await h.press('enter');
    const screen = await h.waitFor(/requests\s+40 in/, 30_000);
    expect(hits).toBe(40); // counted at the server: exactly the requests asked for
    expect(screen).toMatch(/4 workers, 40 requests/);
    expect(screen).toMatch(/p50 [\d.]+\s+p90 [\d.]+\s+p95/);
    expect(screen).toMatch(/200 ×32/);
    expect(screen).toMatch(/503 ×8/);
    expect(h.status()).toMatch(/stress hit: 40 requests/);
    await h.press('escape'); // closes the table
    await h.waitFor((s) => !/requests\s+40 in/.test(s));
  });

  it('shows progress in the status bar; Esc stops a running one', async () => {
    hits = 0;
    const h = await stressForm();
    await h.type('2 60s');
    await h.press('enter');
    await h.waitFor(() => /stress hit \(Esc stops\): [1-9]\d* req, \d+ err/.test(h.status()), 20_000);
    await h.press('escape');
    const screen = await h.waitFor(/stopped early \(Esc\)/, 20_000);
    const shown = Number(/requests\s+(\d+) in/.exec(screen)?.[1]);
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThanOrEqual(hits); // every counted request reached the server
  });

  it('a bad settings line is one line in the status bar', async () => {
    const h = await stressForm();
    await h.type('many 10s');
    await h.press('enter');
    await h.waitFor(() => /--workers expects a whole number/.test(h.status()));
  });

  // The bound is waitFor's, far above 1 s + the 5 s grace and far below the drip's 100,000 s: no timing assertion.
  it("a duration's run against a server that drips ends 5 s after its duration: what is in flight is cut, left out and said", async () => {
    const h = await stressForm(dripping.dir, 'drip');
    await h.type('2 1s');
    await h.press('enter');
    const screen = await h.waitFor(/requests still in flight 5 s after the end of the run/, 60_000);
    expect(screen).toMatch(/were cancelled and are left out of the figures/);
    expect(screen).toMatch(/2 workers, for 1\.00 s/);
    expect(screen).toMatch(/requests\s+0 in/);
    expect(screen).not.toMatch(/stopped early/);
    expect(h.status()).toMatch(/stress drip: 0 requests/);
    expect(h.status()).not.toMatch(/\(stopped\)/);
  }, 90_000);
});
