/**
 * Output channels: a write error other than EPIPE (a full disk) is one line and exit 74, never
 * exit 0 with the output cut short; a reader that leaves (`| head`) stays quiet.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { BIN, tempDir } from '../helpers/cli.js';

let server: Server;
let url = '';
const tmp = tempDir('reqflow-output-');

beforeAll(async () => {
  server = createServer((req, res) => {
    // 200,000 events: enough output for writes to queue up behind the first one that failed.
    if (req.url === '/events') return void res.writeHead(200, { 'Content-Type': 'text/event-stream' }).end('data: x\n\n'.repeat(200_000));
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ items: Array.from({ length: 2000 }, (_, i) => ({ i, text: 'x'.repeat(40) })) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

/** Runs the CLI with stdout on a file descriptor of our choosing. */
function runTo(stdoutPath: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  const fd = openSync(stdoutPath, 'w');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', fd, 'pipe'], env: { PATH: process.env.PATH, HOME: tmp.dir, REQFLOW_STATE_DIR: join(tmp.dir, 'state'), NO_COLOR: '1' } });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => {
      closeSync(fd);
      resolve({ code, stderr });
    });
  });
}

const full = existsSync('/dev/full') ? test : test.skip;

full.each(['pretty', 'json', 'raw'])('-o %s to a full disk (/dev/full): one clear line, exit 74', async (mode) => {
  const file = tmp.write(`full-${mode}.http`, `GET ${url}/\n`);
  const { code, stderr } = await runTo('/dev/full', ['run', file, '-o', mode]);
  expect(code).toBe(74);
  expect(stderr).toMatch(/^reqflow: cannot write the output: no space left on the device$/m);
  expect(stderr).not.toMatch(/\n\s+at |Error:/);
});

full.each(['pretty', 'json', 'raw'])('-o %s of a long event stream to a full disk: one clear line, exit 74', async (mode) => {
  const file = tmp.write(`full-events-${mode}.http`, `# @streaming true\nGET ${url}/events\n`);
  const { code, stderr } = await runTo('/dev/full', ['run', file, '-o', mode]);
  expect(code).toBe(74);
  expect(stderr.match(/^reqflow: .*$/gm)).toEqual(['reqflow: cannot write the output: no space left on the device']);
});

test('a reader that leaves early (| head) is not an error', async () => {
  const file = tmp.write('head.http', `GET ${url}/\n`);
  const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn('bash', ['-c', `"${process.execPath}" "${BIN}" run "${file}" -o raw | head -c 10 > /dev/null; exit \${PIPESTATUS[0]}`], { env: { PATH: process.env.PATH, HOME: tmp.dir, REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
  expect(result).toEqual({ code: 0, stderr: '' });
});
