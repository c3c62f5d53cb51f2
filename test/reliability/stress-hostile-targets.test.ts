/**
 * `reqflow stress` against targets that hold a request open: one that drips its body a byte at
 * a time (each byte restarts the idle time-out) and one that never answers. A `--duration` run
 * ends a few seconds after its duration — what is still in flight cancelled, left out, and said
 * on stderr — instead of lasting as long as the server likes.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';

const tmp = tempDir('reqflow-stress-hostile-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
let server: Server;
let base = '';
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', (chunk: Buffer) => {
      if (!chunk.toString('latin1').startsWith('GET /drip')) return; // /silent: never answers
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n');
      const drip = setInterval(() => (socket.destroyed ? clearInterval(drip) : socket.write('a')), 100);
      socket.once('close', () => clearInterval(drip));
    });
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

// The bound is the child's time-out (far above duration + grace, far below the drip's 10,000 s): no timing assertion.
test.each(['drip', 'silent'])('a --duration run against a target that %s ends, the requests in flight cancelled and said', async (path) => {
  const file = tmp.write(`${path}.http`, `GET ${base}/${path}\n`);
  const result = await runCli(['stress', file, '-c', '2', '-d', '1s', '--timeout', '120000'], { env, timeoutMs: 60_000 });
  expect(result.signal).toBeNull();
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(/^reqflow: warning: requests still in flight 5 s after the end of the run were cancelled and are left out of the figures$/m);
  expect(result.stdout).not.toMatch(/stopped early/);
});
