/**
 * The `--json` listings of the history, the script globals and the cookies print what servers
 * and scripts wrote: C1 controls (8-bit CSI) and bidi overrides are written as JSON escapes
 * (`\u009b`, `\u202e`), as `-o json` writes them — the same value for any parser, nothing a
 * terminal acts on.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecorder, type Recorder } from '../helpers/recorder.js';

const HOSTILE = 'c1:\u009b2J bidi:\u202eevil';
let recorder: Recorder;
const tmp = tempDir('reqflow-json-listings-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };

beforeAll(async () => {
  recorder = await startRecorder((_req, res) => {
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end(HOSTILE);
  });
});
afterAll(async () => {
  await recorder.close();
  tmp.cleanup();
});

function terminalSafe(stdout: string): void {
  expect(stdout).not.toMatch(/[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/);
}

test('history --json, history show --json and globals list --json escape C1 and bidi controls, and keep the value', async () => {
  const file = tmp.write('hostile.http', `GET ${recorder.url}/\n\n> {%\n  client.global.set("echo", response.body);\n%}\n`);
  expect((await runCli(['run', file], { env, cwd: tmp.dir })).code).toBe(0);

  const list = await runCli(['history', '--json'], { env, cwd: tmp.dir });
  expect(list.code).toBe(0);
  terminalSafe(list.stdout);
  const id = (JSON.parse(list.stdout.trim().split('\n')[0] as string) as { id: string }).id;

  const shown = await runCli(['history', 'show', id, '--json'], { env, cwd: tmp.dir });
  expect(shown.code).toBe(0);
  terminalSafe(shown.stdout);
  expect(shown.stdout).toContain('\\u009b2J');
  expect(JSON.stringify(JSON.parse(shown.stdout))).toContain(HOSTILE);

  const globals = await runCli(['globals', 'list', '--show', '--json'], { env, cwd: tmp.dir });
  expect(globals.code).toBe(0);
  terminalSafe(globals.stdout);
  expect((JSON.parse(globals.stdout) as { globals: Record<string, string> }).globals.echo).toBe(HOSTILE);
});
