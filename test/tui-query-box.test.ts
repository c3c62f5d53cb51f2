/**
 * `J`, the query box, headless (real neo-blessed screen on fake terminal streams) against a
 * local server: a JMESPath or JSONPath expression filters the JSON body live, an invalid one
 * keeps the last good result and shows its error, Esc restores the whole body, Enter keeps the view.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tempDir } from './helpers/cli.js';
import { harnessPerTest, type Harness, isolatedEnv } from './helpers/tui-harness.js';

const USERS = { users: [ { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', roles: ['admin'] }, { id: 2, name: 'Alan Turing', email: 'alan@example.com', roles: [] } ] };

let server: Server;
let workspace: ReturnType<typeof tempDir>;
const startHarness = harnessPerTest();

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/users') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(USERS));
    if (req.url === '/names') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ names: [`${'a'.repeat(40)}!`] }));
    if (req.url === '/spaces') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: `a${' '.repeat(200_000)}b` }));
    if (req.url === '/numbers') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items: Array.from({ length: 1000 }, (_, i) => i) }));
    if (req.url === '/text') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('plain words\n');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  workspace = tempDir('reqflow-tui-query-');
  workspace.write('api.http', ['### list users', `GET ${base}/users`, '', '### plain text', `GET ${base}/text`, '', '### names', `GET ${base}/names`, '', '### spaces', `GET ${base}/spaces`, '', '### numbers', `GET ${base}/numbers`, ''].join('\n'));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  workspace.cleanup();
});

async function sent(name: string, more: { scriptTimeout?: string; columns?: number } = {}): Promise<Harness> {
  const h = await startHarness({ dir: workspace.dir, env: isolatedEnv(workspace.dir), ...more });
  for (let i = 0; i < 10 && !new RegExp(`Request · ${name}\\b`).test(h.text()); i++) await h.press('j');
  await h.press('enter');
  await h.waitFor((screen) => /200 OK/.test(screen) && !screen.includes('sending…'));
  return h;
}

/** The response pane's rows (below the request pane), without the border. */
const body = (screen: string): string => screen.split('\n').slice(9, -1).join('\n');

describe('J, the query box', () => {
  it('filters the body live with JMESPath; an invalid expression keeps the last result; Esc restores the body', async () => {
    const h = await sent('list users');
    await h.waitFor(/"email": "alan@example.com"|"users": \[/);
    await h.press('tab', 'tab'); // the response pane
    await h.press('J');
    await h.waitFor((screen) => /JMESPath/.test(h.status()) && screen.length > 0);
    await h.type('users[0].name');
    let screen = await h.waitFor((s) => body(s).includes('"Ada Lovelace"') && !body(s).includes('"id"'));
    expect(screen).toMatch(/200 OK · .* · J users\[0\]\.name /);
    expect(body(screen)).not.toContain('"users"');
    expect(body(screen)).not.toContain('Alan');

    await h.type(' ||| '); // not JMESPath: the error shows, the last good result stays
    await h.waitFor(() => /invalid JMESPath filter "users\[0\]\.name \|\|\|"/.test(h.status()));
    screen = h.text();
    expect(body(screen)).toContain('"Ada Lovelace"');
    expect(screen).toMatch(/J users\[0\]\.name /);

    await h.press('escape');
    screen = await h.waitFor((s) => body(s).includes('"users": ['));
    expect(screen).not.toMatch(/· J users/);
    expect(body(screen)).toContain('"id": 2');
  });

  it('JSONPath from $ lists every match; Enter keeps the view until Esc', async () => {
    const h = await sent('list users');
    await h.press('tab', 'tab'); // the response pane: j scrolls it
    await h.press('J');
    await h.type('$.users[*].email');
    await h.press('enter');
    let screen = await h.waitFor((s) => s.includes('· J $.users[*].email') && body(s).includes('alan@'));
    expect(body(screen).split('\n').map((row) => row.replace(/[│\s]/g, '')).slice(1, 5)).toEqual(['[', '"ada@example.com",', '"alan@example.com"', ']']);
    expect(body(screen)).not.toContain('Lovelace');
    expect(h.status()).toContain('filtered view kept');

    await h.press('j', 'h'); // keys are the main screen's again; the view stays
    expect(body(h.text())).toContain('"alan@example.com"');
    await h.press('escape');
    screen = await h.waitFor((s) => body(s).includes('"users": ['));
    expect(body(screen)).toContain('Lovelace');
  });

  it('a body that is not JSON gets a one-line notice and no box', async () => {
    const h = await sent('plain text');
    await h.waitFor(/plain words/);
    await h.press('J');
    await h.waitFor(() => /J filters JSON only: the body is not valid/.test(h.status()));
    await h.type('x'); // no box took the key: x is the hex view's key
    await h.waitFor(/in hex/);
  });

  /**
   * How long these waits may take: a hang only. What stopped each search is in its message (the
   * 300 ms limit — the default would say 5000 ms —, the size limit), and a search slower than
   * 300 ms fails with "ran past"; no clock is needed to tell them apart.
   */
  const HANG_MS = 15_000;

  it('a JSONPath filter that backtracks without end stops at the UI\'s --script-timeout, not the default 5 s', async () => {
    const h = await sent('names', { scriptTimeout: '300', columns: 200 }); // wide enough for the whole error
    await h.press('tab', 'tab');
    await h.press('J');
    await h.type('$.names[?(@.match(/^(a|a)*$/))]');
    await h.waitFor(() => /ran past its time limit of 300 ms/.test(h.status()), HANG_MS);
  });

  it('a JMESPath trim over a long run of spaces (quadratic in the library) answers at once', async () => {
    const h = await sent('spaces', { scriptTimeout: '300', columns: 200 });
    await h.press('tab', 'tab');
    await h.press('J');
    await h.type('length(trim(name))');
    await h.waitFor((screen) => body(screen).includes('200002'), HANG_MS);
  });

  it('a JMESPath search over a small body that goes over it again and again stops at --script-timeout; one that repeats it, at its size limit', async () => {
    const h = await sent('numbers', { scriptTimeout: '300', columns: 200 });
    await h.press('tab', 'tab');
    await h.press('J');
    await h.type('items[?length($.items[?length($.items[?@ == `-1`]) > `0`]) > `0`]');
    await h.waitFor(() => /failed: ran past its time limit of 300 ms/.test(h.status()), HANG_MS);
    await h.press('escape');
    await h.press('J');
    await h.type('items[*].[$, $]'); // the body twice for each of its 1,000 items
    await h.waitFor(() => /failed: a value it makes grows past 1,048,576/.test(h.status()), HANG_MS);
  });
});
