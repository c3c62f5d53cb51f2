/**
 * What a script prints is bounded before it reaches reqflow's main thread (docs/security.md): a
 * response handler that logged a 60-million-character line holding pieces of a secret ran the
 * main thread out of heap in the masking of secret pieces (5 GB, exit 134 after two minutes).
 * Each line is now cut at 16 KiB and a script's whole output at 1 MiB, in the worker, and the
 * masking is one pass that merges its spans: text masked at every position is one span.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { SecretPieces } from '../src/scripts/secret-pieces.js';
import { runCli, tempDir } from './helpers/cli.js';
import { startRecorder, type Recorder } from './helpers/recorder.js';

const tmp = tempDir('reqflow-printed-limit-');
let server: Recorder;

beforeAll(async () => {
  server = await startRecorder();
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

describe('what a script prints', () => {
  test('a 60 M-character log line, assertion message and error are cut at 16 KiB, masked, and the run goes on', async () => {
    const file = tmp.write(
      'huge.http',
      `GET ${server.url}/a\n\n> {%\n  client.global.set('password', 'abcdefabcdefX');\n  const s = 'abcdef'.repeat(10_000_000);\n  client.log(s);\n  client.test('long', () => client.assert(false, s));\n  throw new Error(s);\n%}\n\n###\nGET ${server.url}/b\n`,
    );
    const result = await runCli(['run', file], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') }, timeoutMs: 90_000 });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('reqflow: log: •••… (59983616 more characters cut: a script prints at most 16384 a line)');
    expect(result.stdout + result.stderr).toMatch(/Error: •••… \(\d+ more characters cut/);
    expect(result.stdout.length + result.stderr.length).toBeLessThan(100_000);
    expect(server.received.map((r) => r.url)).toEqual(['/a', '/b']);
  }, 100_000);

  test("past 1 MiB in all, the script's further log lines are dropped, saying so once", async () => {
    const file = tmp.write('many.http', `GET ${server.url}/c\n\n> {%\n  for (let i = 0; i < 300; i++) client.log(String(i).padEnd(10_000, '.'));\n%}\n`);
    const result = await runCli(['run', file], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') }, timeoutMs: 60_000 });
    expect(result.code).toBe(0);
    const lines = result.stderr.split('\n').filter((line) => line.startsWith('reqflow: log: '));
    expect(lines.at(-1)).toBe("reqflow: log: (the rest of this script's log is cut: a script prints at most 1048576 characters)");
    expect(lines.length).toBeLessThan(120);
    expect(lines.filter((line) => line.includes('cut:')).length).toBeLessThanOrEqual(2);
  }, 70_000);

  test('a line cut by what is left of the 1 MiB, not by the 16 KiB a line, says so', async () => {
    const file = tmp.write('rest.http', `GET ${server.url}/d\n\n> {%\n  for (let i = 0; i < 104; i++) client.log('.'.repeat(10_000));\n  client.log('x'.repeat(16_000));\n%}\n`);
    const result = await runCli(['run', file], { env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') }, timeoutMs: 60_000 });
    expect(result.code).toBe(0);
    const last = result.stderr.split('\n').filter((line) => line.startsWith('reqflow: log: ')).at(-1);
    expect(last).toMatch(/^reqflow: log: x+… \(\d+ more characters cut: a script prints at most 1048576 characters in all\)$/);
  }, 70_000);
});

describe('masking of secret pieces', () => {
  test('a text that is pieces of a secret at every position is masked as one span', () => {
    const pieces = new SecretPieces(['abcdefabcdefX']);
    expect(pieces.mask('abcdef'.repeat(1_000_000))).toBe('•••');
    expect(pieces.mask(`x ${'a-b-c-d-e-f-'.repeat(1000)}y`)).toBe('x •••-y');
  });
});
