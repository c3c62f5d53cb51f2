/**
 * The terminal UI keeps a state per request (issue 25): each request shows its own last
 * response, a running send shows its elapsed time, several run at once, a cancel keeps the
 * previous response, a chained request lists what ran first, and checks are listed under the
 * response. Headless: the real neo-blessed screen on fake terminal streams, a real local API.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { tempDir } from './helpers/cli.js';
import { harnessPerTest, isolatedEnv, type Harness, selectRequest, sendRequest } from './helpers/tui-harness.js';
import { startGateServer, type GateServer } from './servers/gate-server.js';

let api: GateServer;
let workspace: ReturnType<typeof tempDir>;
const startHarness = harnessPerTest();

beforeAll(async () => {
  api = await startGateServer();
  workspace = tempDir('reqflow-tui-requests-');
  workspace.write(
    'api.http',
    [
      '### alpha',
      '# @name alpha',
      'GET {{baseUrl}}/alpha',
      '',
      '### beta',
      'GET {{baseUrl}}/beta',
      '',
      '### gate',
      'GET {{baseUrl}}/gate',
      '',
      '### never sent',
      'GET {{baseUrl}}/alpha?never',
      '',
      '### checked',
      'GET {{baseUrl}}/alpha',
      '',
      '?? status == 200',
      '?? body $.who == wrong-name',
      '',
      '### uses alpha',
      'GET {{baseUrl}}/beta?from={{alpha.response.body.$.who}}',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await api.close();
  workspace.cleanup();
});

function open(): Promise<Harness> {
  return startHarness({ dir: workspace.dir, env: isolatedEnv(workspace.dir), variables: [`baseUrl=${api.url}`] });
}


describe('responses belong to requests', () => {
  it('shows each request its own response: A, then B (500), then A again; a never-sent request shows a hint', async () => {
    const h = await open();
    await selectRequest(h, 'alpha');
    await h.press('enter');
    await h.waitFor('alpha-body');
    await selectRequest(h, 'beta');
    expect(h.text()).not.toContain('alpha-body'); // not sent yet: not alpha's body
    expect(h.text()).toContain('Not sent yet');
    await h.press('enter');
    let screen = await h.waitFor('beta-broke');
    expect(screen).toContain('500 Internal Server Error');
    await selectRequest(h, 'alpha');
    screen = await h.waitFor('alpha-body');
    expect(screen).not.toContain('beta-broke');
    expect(screen).toMatch(/200 OK · \d+ ms/);
    await selectRequest(h, 'never sent');
    screen = await h.waitFor('Not sent yet');
    expect(screen).not.toMatch(/alpha-body|beta-broke/);
  });

  it('runs several requests at once, shows the live elapsed time, and Esc cancels the selected one keeping its previous response', async () => {
    const h = await open();
    await selectRequest(h, 'gate');
    await h.press('enter');
    await h.waitFor('first-answer');
    // The second send is held by the server: it runs, with a clock that moves.
    await h.press('enter');
    const first = Number(/sending… (\d+\.\d)s · Esc cancels/.exec(await h.waitFor(/sending… \d+\.\ds · Esc cancels/))?.[1]);
    await h.waitFor((s) => {
      const now = /sending… (\d+\.\d)s/.exec(s);
      return now !== null && Number(now[1]) > first;
    });
    expect(h.text()).toContain('first-answer'); // the previous response stays while it runs
    // Another request runs meanwhile and answers.
    await selectRequest(h, 'alpha');
    await h.press('enter');
    await h.waitFor('alpha-body');
    // Back on the held one: still sending; Esc cancels it, and its previous response is kept.
    await selectRequest(h, 'gate');
    await h.waitFor(/sending… \d+\.\ds/);
    await h.press('escape');
    const screen = await h.waitFor('cancelled · the previous response is kept');
    expect(screen).toContain('first-answer');
    expect(h.status()).toContain('cancelled gate');
    api.release();
  });

  it('lists the requests that ran first for a chained request, which keep their own response', async () => {
    const h = await open();
    const before = api.hits.get('/alpha') ?? 0;
    await selectRequest(h, 'uses alpha');
    await h.press('enter');
    const screen = await h.waitFor('ran first: alpha (200 OK)');
    expect(screen).toContain('beta-broke'); // its own body only
    expect(screen).not.toContain('"who"');
    expect(api.hits.get('/alpha')).toBe(before + 1);
    await selectRequest(h, 'alpha');
    await h.waitFor('alpha-body');
  });
});

describe('checks in view', () => {
  it("lists a request's checks under its response: passed, failed with expected against actual, file:line", async () => {
    const h = await open();
    await selectRequest(h, 'checked');
    await h.press('enter');
    const screen = await h.waitFor('checks: 1 of 2 failed');
    expect(screen).toMatch(/✓ status == 200\s+api\.http:17/);
    expect(screen).toMatch(/✗ body \$\.who == wrong-name\s+api\.http:18/);
    expect(screen).toMatch(/expected body \$\.who == "wrong-name", got[\s│]+"alpha-body"/);
  });
});

describe('a request file changed on disk', () => {
  it('two reloads at once (the file watcher and r) move each response with its request once, not twice', async () => {
    const folder = tempDir('reqflow-tui-reloads-');
    try {
      const file = (top: string): string => `${top}### first\nGET {{baseUrl}}/first\n\n### second\nGET {{baseUrl}}/second\n\n### third\nDELETE {{baseUrl}}/third\n`;
      folder.write('api.http', file(''));
      const h = await startHarness({ dir: folder.dir, env: isolatedEnv(folder.dir), variables: [`baseUrl=${api.url}`] });
      await sendRequest(h, 'second', '"/second"');
      folder.write('api.http', file('### zero\nPOST {{baseUrl}}/zero\n\n'));
      await h.press('r', 'r', 'r');
      await h.waitFor(/POST\s+zero/);
      await selectRequest(h, 'third');
      // Moved twice, the second request's response was shown as the third's.
      const screen = await h.waitFor('Not sent yet');
      expect(screen).not.toContain('"/second"');
      await selectRequest(h, 'second');
      await h.waitFor('"/second"');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps each response and the selection with its request when a request is added above it; an edited request is shown as it now reads', async () => {
    const folder = tempDir('reqflow-tui-moves-');
    try {
      const file = (top: string, second = '/second'): string => `${top}### first\nGET {{baseUrl}}/first\n\n### second\nGET {{baseUrl}}${second}\n\n### third\nDELETE {{baseUrl}}/third\n`;
      folder.write('api.http', file(''));
      const h = await startHarness({ dir: folder.dir, env: isolatedEnv(folder.dir), variables: [`baseUrl=${api.url}`] });
      await sendRequest(h, 'second', '"/second"');
      await sendRequest(h, 'third', '"/third"');
      await selectRequest(h, 'second');
      await h.waitFor('"/second"');

      // Another program adds a request at the top: every request's place in the file moves.
      folder.write('api.http', file('### zero\nPOST {{baseUrl}}/zero\n\n'));
      await h.press('r');
      let screen = await h.waitFor(/POST\s+zero/);
      expect(screen).toMatch(/Request · second(?!\w)/); // the selection stayed on its request
      expect(screen).toContain('"/second"');
      expect(screen).not.toContain('"/third"');
      await selectRequest(h, 'first');
      screen = await h.waitFor('Not sent yet');
      expect(screen).not.toMatch(/"\/(second|third)"/);
      await selectRequest(h, 'third');
      await h.waitFor('"/third"');
      const sent = api.hits.get('/second') ?? 0;
      await selectRequest(h, 'second');
      await h.press('enter');
      await h.waitFor(() => (api.hits.get('/second') ?? 0) === sent + 1);
      expect(api.hits.get('/zero')).toBeUndefined();

      // The request itself edited: its pane shows what it now says, not the last send as "(sent)".
      await h.waitFor('(sent)');
      folder.write('api.http', file('### zero\nPOST {{baseUrl}}/zero\n\n', '/second-v2'));
      await h.press('r');
      screen = await h.waitFor('/second-v2');
      expect(screen).toMatch(/Request · second(?!\w)/);
      expect(screen).not.toContain('(sent)');
    } finally {
      folder.cleanup();
    }
  });
});
