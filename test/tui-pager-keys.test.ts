/**
 * The whole response in the terminal UI, headless (real neo-blessed screen on fake terminal
 * streams) against a local server: G on a 5,000-line body, search with n/N, saving the exact
 * bytes, the hex view of a binary body, a body too large to render, copy as curl, timing.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './helpers/cli.js';
import { harnessPerTest, isolatedEnv, type Harness } from './helpers/tui-harness.js';

const LINES = Array.from({ length: 5000 }, (_, i) => `row ${i + 1}`).join('\n') + '\n';
/** Every byte value, NULs first: binary by the project's rule (a NUL in the first 8000 bytes). */
const BINARY = Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 7 + (i >> 8)) % 256));
/** Past the 4 MB the pane renders: paged as received. */
const LARGE = Array.from({ length: 300_000 }, (_, i) => `large line ${i + 1} ${'.'.repeat(10)}`).join('\n') + '\n';

let server: Server;
let counter = 0;
let workspace: ReturnType<typeof tempDir>;
const startHarness = harnessPerTest();

beforeAll(async () => {
  server = createServer((req, res) => {
    const send = (type: string, body: string | Buffer): void => {
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    };
    if (req.url === '/lines') return send('text/plain; charset=utf-8', LINES);
    if (req.url === '/binary') return send('application/octet-stream', BINARY);
    if (req.url === '/large') return send('text/plain', LARGE);
    if (req.url === '/counter') return send('application/json', JSON.stringify({ name: 'counter', count: ++counter, unchanged: [1, 2, 3] }));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  workspace = tempDir('reqflow-tui-pager-');
  workspace.write(
    'pager.http',
    ['### five thousand', `GET ${base}/lines`, 'X-Api-Key: {{apiKey}}', '', '### binary', `GET ${base}/binary`, '', '### large', `GET ${base}/large`, '', '### counter', `GET ${base}/counter`, ''].join('\n'),
  );
  workspace.write('.profiles.json', JSON.stringify([{ name: 'dev', variables: { apiKey: 'k-secret-98765' } }]));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  workspace.cleanup();
});

const open = (): Promise<Harness> => startHarness({ dir: workspace.dir, env: isolatedEnv(workspace.dir) });

async function sendRequest(name: string, opened?: Harness): Promise<Harness> {
  const h = opened ?? (await open());
  await h.press('g');
  for (let i = 0; i < 10 && !new RegExp(`Request · ${name}\\b`).test(h.text()); i++) await h.press('j');
  await h.press('enter');
  await h.waitFor((screen) => /200 OK/.test(screen) && !screen.includes('sending…'));
  return h;
}

describe('the whole response', () => {
  it('G in a 5,000-line body reaches the true last line; g goes back to the first', async () => {
    const h = await sendRequest('five thousand');
    await h.waitFor(/│row 1\s/);
    await h.press('f'); // full screen: the response has the focus
    await h.press('G');
    const screen = await h.waitFor(/row 5000/);
    expect(screen).not.toMatch(/more lines not shown/);
    expect(screen).toMatch(/row 4990/);
    await h.press('g');
    await h.waitFor((s) => /│row 1\s/.test(s) && !s.includes('row 5000'));
    await h.press('pagedown');
    await h.waitFor((s) => !/│row 1\s/.test(s) && /│row 2\d\s/.test(s));
  });

  it('/ in the response searches it, n and N step through the matches with match i/N', async () => {
    const h = await sendRequest('five thousand');
    await h.press('tab', 'tab'); // the response pane
    await h.press('/');
    await h.waitFor('Search the response');
    await h.type('row 12');
    await h.press('enter');
    await h.waitFor((s) => (s.split('\n').pop() ?? '').includes('match 1/111'));
    await h.press('n');
    await h.waitFor((s) => (s.split('\n').pop() ?? '').includes('match 2/111'));
    expect(h.text()).toMatch(/row 120\b/);
    await h.press('N', 'N');
    await h.waitFor((s) => (s.split('\n').pop() ?? '').includes('match 111/111'));
    expect(h.text()).toMatch(/row 1299\b/);
    // The tree's / is still the request filter.
    await h.press('tab');
    await h.press('/');
    await h.waitFor((s) => (s.split('\n').pop() ?? '').includes('│ /'));
    await h.press('escape');
  });

  it('s saves the exact bytes received, and replaces an existing file only when told to', async () => {
    const h = await sendRequest('binary');
    await h.press('s');
    await h.waitFor('Save the body');
    expect(h.text()).toContain('binary.bin');
    await h.press('C-u');
    await h.type('out/saved.bin');
    await h.press('enter');
    await h.waitFor('saved 600 bytes to out/saved.bin');
    const path = join(workspace.dir, 'out/saved.bin');
    expect(readFileSync(path).equals(BINARY)).toBe(true);
    // Again: the file exists, "No" is the default.
    await h.press('s', 'C-u');
    await h.type('out/saved.bin');
    await h.press('enter');
    await h.waitFor('out/saved.bin exists');
    await h.press('enter');
    await h.waitFor('not saved: the file was kept');
    await h.press('s', 'C-u');
    await h.type('out/saved.bin');
    await h.press('enter', 'j', 'enter');
    await h.waitFor('saved 600 bytes to out/saved.bin');
    expect(readFileSync(path).equals(BINARY)).toBe(true);
  });

  it('shows a binary body in hex by itself; x switches the view', async () => {
    const h = await sendRequest('binary');
    const screen = await h.waitFor('00000000  00 07 0e 15');
    expect(screen).toContain('binary body, 600 B, in hex');
    await h.press('f', 'G');
    await h.waitFor(/00000250 {2}/); // the last row: bytes 592…599
    await h.press('x');
    await h.waitFor((s) => !s.includes('00000000  00 07'));
    await h.press('x');
    await h.waitFor('00000000  00 07 0e 15');
  });

  it('pages a body too large to render as received, to its last line', async () => {
    const h = await sendRequest('large');
    await h.waitFor('shown as received, not formatted');
    await h.press('f', 'G');
    await h.waitFor('large line 300000 ..........');
  });

  it('C copies the request as curl, secrets masked; t shows the timing', async () => {
    const h = await sendRequest('five thousand');
    h.output.written = '';
    await h.press('C');
    await h.waitFor('copied the request as curl (secrets masked)');
    const match = /\u001b\]52;c;([A-Za-z0-9+/=]+)\u0007/.exec(h.output.written);
    const command = Buffer.from(match?.[1] ?? '', 'base64').toString('utf8');
    expect(command).toMatch(/^curl 'http:\/\/127\.0\.0\.1:\d+\/lines'/m);
    expect(command).toContain('/lines');
    expect(command).toContain('X-Api-Key: •••');
    expect(command).not.toContain('k-secret-98765');
    await h.press('t');
    const screen = await h.waitFor('Timing');
    expect(screen).toMatch(/first byte \(start → headers\)\s+[\d.]+ ms/);
    // A new connection (the first request of this window): connect and waiting measured by the send layer.
    expect(screen).toMatch(/TCP connect\s+[\d.]+ ms/);
    expect(screen).toMatch(/waiting \(sent → headers\)\s+[\d.]+ ms/);
    expect(screen).toMatch(/total \(as the UI saw it\)\s+[\d.]+ m?s/);
    // Sent again: the kept-alive connection has no connect phase.
    await h.press('escape');
    await sendRequest('five thousand', h);
    await h.press('t');
    await h.waitFor('kept alive from an earlier request');
  });
});

describe('history, pin and diff', () => {
  it('H lists the sends of earlier sessions newest first, and Enter shows a stored one', async () => {
    const first = await sendRequest('five thousand');
    await sendRequest('binary', first);
    await first.close();
    const h = await open(); // a restart: the list comes from the history store
    await h.press('H');
    const screen = await h.waitFor('History · dev · newest first');
    const rows = screen.split('\n').filter((line) => /GET\s+200/.test(line));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows[0]).toMatch(/binary/);
    expect(rows[1]).toMatch(/five thousand/);
    await h.press('j', 'enter');
    await h.waitFor('from the history: sent');
    const restored = await h.waitFor(/│row 1\s/);
    expect(restored).toMatch(/200 OK · \d+ ms · 42\.9 kB/);
    expect(h.status()).toContain('restored GET five thousand');
  });

  it('w pins a response and W shows what changed in the next one, field by field', async () => {
    const h = await sendRequest('counter');
    await h.waitFor('"count"');
    await h.press('w');
    await h.waitFor('pinned counter 200');
    await sendRequest('counter', h);
    await h.press('W');
    const screen = await h.waitFor('Pinned → shown');
    expect(screen).toContain('(JSON: keys sorted, compared field by field)');
    const count = Number(/│ -\s+"count": (\d+)/.exec(screen)?.[1]);
    expect(count).toBeGreaterThan(0);
    expect(screen).toMatch(new RegExp(`│ \\+\\s+"count": ${count + 1},`));
    expect(screen).toMatch(/│ {4}"name": "counter"/); // unchanged: context, not a change
    expect(screen).not.toMatch(/│ [-+]\s+"name"/);
  });
});
