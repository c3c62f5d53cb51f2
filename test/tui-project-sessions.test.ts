/**
 * The UI sends each request with the session of its own file's project, as `reqflow run FILE`
 * does: two repositories under the folder the UI opened never share a login, so a token one
 * project's server gave is never sent to the other's (docs/tui.md, docs/profiles.md).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';
import { harnessPerTest, isolatedEnv, selectRequest } from './helpers/tui-harness.js';

let first: Recorder;
let second: Recorder;
const workspace = tempDir('reqflow-tui-projects-');
const startHarness = harnessPerTest();

beforeAll(async () => {
  const loginServer = (token: string) =>
    startRecorder((req, res) => {
      res.setHeader('Content-Type', 'application/json');
      // Both servers are 127.0.0.1: a cookie ignores the port (RFC 6265 §8.5), so one jar for both would send it to the other.
      if (req.url === '/login') res.setHeader('Set-Cookie', `sid=cookie-${token}; Path=/`);
      res.end(req.url === '/login' ? JSON.stringify({ token }) : '{}');
    });
  [first, second] = await Promise.all([loginServer('tok-of-r1'), loginServer('tok-of-r2')]);
  // The opened folder has no marker; r1 and r2 are repositories of their own.
  for (const repo of ['r1', 'r2']) mkdirSync(join(workspace.dir, repo, '.git'), { recursive: true });
  workspace.write('r1/api.http', `### r1login\nPOST ${first.url}/login\n\n### r1me\nGET ${first.url}/me\nAuthorization: Bearer {{token}}\n`);
  workspace.write('r1/globals.http', `### r1global\nGET ${first.url}/global\n\n> {%\nclient.global.set("g", "glob-of-r1");\n%}\n`);
  workspace.write('r2/plain.http', `### r2plain\nGET ${second.url}/plain\n\n### r2global\nGET ${second.url}/global\nX-G: {{g}}\n`);
  workspace.write('r2/api.http', `### r2me\nGET ${second.url}/me\nAuthorization: Bearer {{token}}\n\n### r2pass\nPOST ${second.url}/pass\n\n{{$password Password}}\n`);
  workspace.write('r1/pass.http', `### r1pass\nPOST ${first.url}/pass\n\n{{$password Password}}\n`);
  // The opened folder's profiles, and a nested repository with profiles of its own (another server, another key).
  workspace.write('.profiles.json', JSON.stringify([{ name: 'default', variables: { base: first.url }, headers: { 'X-Api-Key': 'outer-key' } }]));
  mkdirSync(join(workspace.dir, 'r3', '.git'), { recursive: true });
  workspace.write('r3/.profiles.json', JSON.stringify([{ name: 'default', variables: { base: second.url }, headers: { 'X-Api-Key': 'r3-key' } }]));
  workspace.write('r3/api.http', `### r3hard\nGET ${second.url}/r3hard\n\n### r3base\nGET {{base}}/r3base\n`);
});
afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
  workspace.cleanup();
});

describe('sessions in the TUI', () => {
  it("a login sent from one repository's file is used by its own requests and never sent to another repository's server", async () => {
    const ui = await startHarness({ dir: workspace.dir, env: isolatedEnv(workspace.dir) });
    await selectRequest(ui, 'r1login');
    await ui.press('enter');
    await ui.waitFor('200 OK');
    await selectRequest(ui, 'r1me');
    await ui.press('enter');
    await ui.waitFor(() => first.received.some((r) => r.url === '/me'));
    expect(first.received.find((r) => r.url === '/me')?.headers.authorization).toBe('Bearer tok-of-r1');
    await selectRequest(ui, 'r2me');
    await ui.press('enter');
    await ui.waitFor('unknown variable');
    expect(second.received).toEqual([]);
  });

  it("a cookie and a script global one repository's requests got are never sent from another repository's file", async () => {
    const ui = await startHarness({ dir: workspace.dir, env: isolatedEnv(workspace.dir) });
    for (const [name, path] of [['r1login', '/login'], ['r1global', '/global']] as const) {
      await selectRequest(ui, name);
      await ui.press('enter');
      await ui.waitFor(() => first.received.some((r) => r.url === path));
    }
    await selectRequest(ui, 'r2plain');
    await ui.press('enter');
    await ui.waitFor(() => second.received.some((r) => r.url === '/plain'));
    expect(second.received.find((r) => r.url === '/plain')?.headers.cookie).toBeUndefined();
    await selectRequest(ui, 'r2global');
    await ui.press('enter');
    await ui.waitFor('unknown variable');
    expect(second.received.filter((r) => r.url === '/global')).toEqual([]);
    // r1's own requests still have both: the session was kept, not lost.
    await selectRequest(ui, 'r1me');
    await ui.press('enter');
    await ui.waitFor(() => first.received.some((r) => r.url === '/me' && r.headers.cookie === 'sid=cookie-tok-of-r1'));
  });

  it("a nested repository with profiles of its own is sent with them, never the opened folder's values or headers", async () => {
    const ui = await startHarness({ dir: workspace.dir, env: isolatedEnv(workspace.dir) });
    for (const name of ['r3hard', 'r3base']) {
      await selectRequest(ui, name);
      await ui.press('enter');
      await ui.waitFor(() => second.received.some((r) => r.url === `/${name}`));
    }
    expect(second.received.filter((r) => r.url.startsWith('/r3')).map((r) => [r.url, r.headers['x-api-key']])).toEqual([['/r3hard', 'r3-key'], ['/r3base', 'r3-key']]);
    expect(first.received.filter((r) => r.url.startsWith('/r3'))).toEqual([]);
  });

  it("a password typed for one repository's request is asked again for another repository's", async () => {
    const ui = await startHarness({ dir: workspace.dir, env: isolatedEnv(workspace.dir) });
    await selectRequest(ui, 'r1pass');
    await ui.press('enter');
    await ui.waitFor('Password');
    await ui.type('first-secret');
    await ui.press('enter');
    await ui.waitFor(() => first.received.some((r) => r.url === '/pass'));
    await selectRequest(ui, 'r2pass');
    await ui.press('enter');
    await ui.waitFor('Password');
    expect(second.received.filter((r) => r.url === '/pass')).toEqual([]);
  });
});
