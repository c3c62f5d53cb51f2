/**
 * Every JSON text reqflow prints follows the one rule of src/core/json-escape.ts that the history
 * and session files already followed: DEL, C1 controls, bidi overrides and isolates, and
 * U+2028/U+2029 (line ends to Unicode line readers — Python's `splitlines`) are `\u` escapes.
 * `-o json`, `history show --json`, `history --json` and `stress -o json` printed U+2028/U+2029
 * raw, and `stress -o json` C1 and bidi controls too. A real server on 127.0.0.1 sends them.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';

/** What no JSON output may hold raw. */
const RAW = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
const BODY_TEXT = 'a\u2028b\u2029c\u009b2Jd\u202ee';

const tmp = tempDir('reqflow-json-rule-');
const stateDir = join(tmp.dir, 'state');
const env = { REQFLOW_STATE_DIR: stateDir };
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ text: BODY_TEXT }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tmp.write('project/.profiles.json', '[]');
  // A request name a shared file wrote: it is in history --json's summary and stress's.
  tmp.write('project/api.http', `### one\u2028two\u202e\nGET ${base}/j\n`);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

const cwd = (): string => join(tmp.dir, 'project');

test('-o json, history --json and history show --json escape U+2028/U+2029 as they escape C1 and bidi controls', async () => {
  const run = await runCli(['run', 'api.http', '-o', 'json'], { cwd: cwd(), env });
  expect(run.code).toBe(0);
  expect(RAW.exec(run.stdout)).toBeNull();
  expect(run.stdout).toContain('\\u2028');
  expect(JSON.stringify(JSON.parse(run.stdout.trim().split('\n')[0] ?? ''))).toContain('a\u2028b\u2029c');

  const list = await runCli(['history', '--json'], { cwd: cwd(), env });
  expect(list.code).toBe(0);
  expect(RAW.exec(list.stdout)).toBeNull();
  const entry = JSON.parse(list.stdout.trim()) as { id: string; name: string };
  expect(entry.name).toBe('one\u2028two\u202e');

  const shown = await runCli(['history', 'show', entry.id, '--json'], { cwd: cwd(), env });
  expect(shown.code).toBe(0);
  expect(RAW.exec(shown.stdout)).toBeNull();
  expect((JSON.parse(shown.stdout) as { response: { body: string } }).response.body).toBe(JSON.stringify({ text: BODY_TEXT }));
});

test('stress -o json escapes them in the names it prints', async () => {
  const result = await runCli(['stress', 'api.http', '--requests', '2', '-c', '1', '-o', 'json'], { cwd: cwd(), env });
  expect(result.code).toBe(0);
  expect(RAW.exec(result.stdout)).toBeNull();
  expect((JSON.parse(result.stdout) as { request: { name: string } }).request.name).toBe('one\u2028two\u202e');
});
