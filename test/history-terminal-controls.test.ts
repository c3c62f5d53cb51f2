/**
 * The history file as `cat`, `tail -f`, `grep` or a line-based reader meets it (docs/history.md,
 * docs/security.md): what a hostile server sends — a header byte 0x9B (read as U+009B, a
 * terminal's 8-bit CSI), C1 controls, DEL, bidi overrides and U+2028/U+2029 in a body — is in the
 * file only as `\u` escapes, and every reader gets the same values back. `JSON.stringify` wrote
 * them raw (every reqflow command showed them escaped; the file itself did not). End to end, a
 * real server on 127.0.0.1 writing its answer byte by byte.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { historyFileFor, historyLines } from './helpers/history-file.js';

/** What a terminal acts on that JSON text may hold raw: DEL, C1 controls, bidi controls. */
const TERMINAL_ACTS_ON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** And what a line reader takes for a line end (Python's splitlines: U+2028, U+2029, and NEL, a C1). */
const ACTED_ON = new RegExp(`${TERMINAL_ACTS_ON.source}|[\u2028\u2029]`);
const BODY = 'one\u009b2Jtwo\u0085three\u007f\u202eevil\u2066\u2028four\u2029five';

const tmp = tempDir('reqflow-history-controls-');
const stateDir = join(tmp.dir, 'state');
const projectDir = join(tmp.dir, 'project');
let server: Server;
let url = '';

beforeAll(async () => {
  server = createServer((socket) => {
    socket.once('data', () => {
      const body = Buffer.from(BODY, 'utf8');
      socket.end(Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nX-Csi: a'), Buffer.from([0x9b]), Buffer.from(`31mred\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`), body]));
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/c`;
  tmp.write('project/.profiles.json', '[]');
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

test('a hostile response is in the history file only as \\u escapes, and reads back as it came', async () => {
  const result = await runCli(['send', url, '-o', 'raw'], { cwd: projectDir, env: { REQFLOW_STATE_DIR: stateDir } });
  expect(result.code).toBe(0);
  const path = historyFileFor(stateDir, projectDir);
  const text = readFileSync(path, 'utf8');
  expect(ACTED_ON.exec(text)).toBeNull();
  expect(text).toContain('"x-csi":"a\\u009b31mred"');
  const [entry] = historyLines(path).entries;
  expect([entry?.response?.headers['x-csi'], entry?.response?.body]).toEqual(['a\u009b31mred', BODY]);

  // The commands that show it did before, and still do: marks on the terminal, escapes in JSON.
  const shown = await runCli(['history', 'show', entry?.id ?? ''], { cwd: projectDir, env: { REQFLOW_STATE_DIR: stateDir } });
  expect(shown.stdout).toContain('x-csi: a<U+009B>31mred');
  const json = await runCli(['history', 'show', entry?.id ?? '', '--json'], { cwd: projectDir, env: { REQFLOW_STATE_DIR: stateDir } });
  expect(TERMINAL_ACTS_ON.exec(json.stdout)).toBeNull();
  expect((JSON.parse(json.stdout) as typeof entry)?.response?.body).toBe(BODY);
});
