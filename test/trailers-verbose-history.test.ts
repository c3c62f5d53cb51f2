/**
 * Response trailers (the fields a chunked HTTP/1.1 body sends after its last chunk) wherever a
 * response's headers are shown or kept: `-o json` had them, `-v` and the history did not. Now
 * `-v` prints them after the body under `trailers:`, the history entry keeps them as
 * `response.trailers` (and `reqflow history show` prints them), each escaped and masked as a
 * header of that name is — a secret-looking name's value is `•••`, a C1 control is visible —
 * and `reqflow proxy` passes them on to its client and records them. Against a real server on
 * 127.0.0.1 that writes its chunked answer byte by byte.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { startCli, type LiveCli } from './helpers/cli-live.js';
import { historyFileFor, historyLines } from './helpers/history-file.js';

const SECRET = 'sig-sekret-77a1';

const tmp = tempDir('reqflow-trailers-');
const stateDir = join(tmp.dir, 'state');
const projectDir = join(tmp.dir, 'project');
const env = { REQFLOW_STATE_DIR: stateDir };
let server: Server;
let base = '';

/** The answer: `{"a":1}` in one chunk, then three trailer fields — one secret-named, one holding UTF-8 bytes of a C1 control (read as Latin-1: `Â` and U+009B) — or none for `/plain`. */
function answer(path: string): Buffer {
  const head = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n';
  if (path === '/plain') return Buffer.from(`${head}\r\n7\r\n{"a":1}\r\n0\r\n\r\n`);
  return Buffer.concat([Buffer.from(`${head}Trailer: X-Checksum, X-Signature-Key, X-Note\r\n\r\n7\r\n{"a":1}\r\n0\r\nX-Checksum: sha256=abc\r\nX-Signature-Key: ${SECRET}\r\nX-Note: a`), Buffer.from([0xc2, 0x9b]), Buffer.from('c1\r\n\r\n')]);
}

beforeAll(async () => {
  server = createServer((socket) => {
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.end(answer(/^\S+ (?:http:\/\/[^/]+)?(\S+)/.exec(head)?.[1] ?? '/'));
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tmp.write('project/.profiles.json', '[]');
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

const TRAILER_LINES = ['trailers:', 'x-checksum: sha256=abc', 'x-signature-key: •••', 'x-note: aÂ<U+009B>c1'];
/** The history's last entry (the file is written when the run ends). */
const lastEntry = () => historyLines(historyFileFor(stateDir, projectDir)).entries.at(-1);

describe('reqflow send -v', () => {
  test('prints the trailers after the body, masked and escaped as headers are; the history entry keeps them', async () => {
    const result = await runCli(['send', `${base}/t`, '-v'], { cwd: projectDir, env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{\n  "a": 1\n}\n'); // piped: the body alone on stdout, -v's lines on stderr
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.slice(-TRAILER_LINES.length)).toEqual(TRAILER_LINES);
    expect(lines).toContain('trailer: X-Checksum, X-Signature-Key, X-Note'); // the header that announced them, in its place
    expect(result.stdout + result.stderr).not.toContain(SECRET);

    const entry = lastEntry();
    expect(entry?.response?.trailers).toEqual({ 'x-checksum': 'sha256=abc', 'x-signature-key': '•••', 'x-note': 'aÂ\u009bc1' });
    expect(readFileSync(historyFileFor(stateDir, projectDir), 'utf8')).not.toContain(SECRET);
    const shown = await runCli(['history', 'show', entry?.id ?? ''], { cwd: projectDir, env });
    expect(shown.code).toBe(0);
    expect(shown.stdout.trimEnd().split('\n').slice(-(TRAILER_LINES.length + 1))).toEqual(['', ...TRAILER_LINES]);
  });

  test('a response without trailers shows no trailers line, and its entry has no trailers key', async () => {
    const result = await runCli(['send', `${base}/plain`, '-v'], { cwd: projectDir, env });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('trailers:');
    expect(lastEntry()?.response).not.toHaveProperty('trailers');
  });

  test('with a filter too (the body read whole first)', async () => {
    const result = await runCli(['send', `${base}/t`, '-v', '--filter', 'a'], { cwd: projectDir, env });
    expect([result.code, result.stdout]).toEqual([0, '1\n']);
    expect(result.stderr.trimEnd().split('\n').slice(-TRAILER_LINES.length)).toEqual(TRAILER_LINES);
  });
});

describe('reqflow proxy', () => {
  let proxy: LiveCli;
  afterAll(async () => {
    proxy?.kill('SIGKILL');
    await proxy?.done;
  });

  test('passes the trailers on to its client and records them, masked', async () => {
    proxy = startCli(['proxy', '--port', '0'], { cwd: projectDir, env, timeoutMs: 60_000 });
    const [, port] = await proxy.waitForStdout(/proxy: listening on http:\/\/127\.0\.0\.1:(\d+) /, 30_000);
    const got = await new Promise<{ body: string; trailers: Record<string, string | undefined> }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: Number(port), path: `${base}/t` }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ body, trailers: res.trailers }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(got).toEqual({ body: '{"a":1}', trailers: { 'x-checksum': 'sha256=abc', 'x-signature-key': SECRET, 'x-note': 'aÂ\u009bc1' } });
    await proxy.waitForStdout(/GET http:\/\/127\.0\.0\.1:\d+\/t {2}200 /);
    let entry = lastEntry();
    for (let i = 0; i < 100 && entry?.file.endsWith('(proxy)') !== true; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      entry = lastEntry();
    }
    expect(entry?.response?.trailers).toEqual({ 'X-Checksum': 'sha256=abc', 'X-Signature-Key': '•••', 'X-Note': 'aÂ\u009bc1' });
  });
});
