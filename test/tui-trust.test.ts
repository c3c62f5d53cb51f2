/**
 * The UI sends through the same trust check as `reqflow run` (docs/trust.md): resterm's
 * `# @auth command` is refused on screen in a project nobody trusted, and runs once
 * `reqflow trust` kept the project — its token sent, never drawn.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';
import { harnessPerTest, isolatedEnv, selectRequest } from './helpers/tui-harness.js';

const TOKEN = 'tui-trust-token-5150';
let server: Recorder;
const workspace = tempDir('reqflow-tui-trust-');
const startHarness = harnessPerTest();
const config = join(workspace.dir, 'config');
const saved = process.env.REQFLOW_CONFIG_DIR;

beforeAll(async () => {
  server = await startRecorder();
  // The UI runs in this process: its trust store is this process's config folder.
  process.env.REQFLOW_CONFIG_DIR = config;
  workspace.write('package.json', '{}');
  workspace.write('token.cjs', `process.stdout.write(${JSON.stringify(`${TOKEN}\n`)});\n`);
  workspace.write('cmd.http', `# @name me\n# @auth command argv=["node","./token.cjs"]\nGET ${server.url}/me\n`);
});
afterAll(async () => {
  if (saved === undefined) delete process.env.REQFLOW_CONFIG_DIR;
  else process.env.REQFLOW_CONFIG_DIR = saved;
  await server.close();
  workspace.cleanup();
});

describe('trust in the TUI', () => {
  it('refuses the command in an untrusted project, and sends its token once the project is trusted', async () => {
    const env = isolatedEnv(workspace.dir);
    const untrusted = await startHarness({ dir: workspace.dir, env });
    await selectRequest(untrusted, 'me');
    await untrusted.press('enter');
    await untrusted.waitFor('runs a program');
    expect(server.received).toEqual([]);
    await untrusted.close();

    expect((await runCli(['trust', workspace.dir], { env: { REQFLOW_CONFIG_DIR: config } })).code).toBe(0);
    const trusted = await startHarness({ dir: workspace.dir, env });
    await selectRequest(trusted, 'me');
    await trusted.press('enter');
    const screen = await trusted.waitFor('200 OK');
    expect(server.received.map((r) => r.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
    expect(screen).not.toContain(TOKEN);
  });
});
