/**
 * `reqflow stress` against targets that hold a request open: one that drips its body a byte at
 * a time (each byte restarts the idle time-out) and one that never answers. A `--duration` run
 * ends a few seconds after its duration — what is still in flight cancelled, left out, and said
 * on stderr — instead of lasting as long as the server likes.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRawServer } from '../helpers/fault-server.js';

const tmp = tempDir('reqflow-stress-hostile-');
let server: Awaited<ReturnType<typeof startRawServer>>;
let base = '';

beforeAll(async () => {
  server = await startRawServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', (chunk: Buffer) => {
      if (!chunk.toString('latin1').startsWith('GET /drip')) return; // /silent: never answers
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n');
      const drip = setInterval(() => (socket.destroyed ? clearInterval(drip) : socket.write('a')), 100);
      socket.once('close', () => clearInterval(drip));
    });
  });
  base = server.url;
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

// The bound is the child's time-out (far above duration + grace, far below the drip's 10,000 s): no timing assertion.
// Both targets at once: each run waits out its 5 s of grace.
test('a --duration run against a target that drips and one that is silent ends, the requests in flight cancelled and said', async () => {
  const results = await Promise.all(
    ['drip', 'silent'].map((path) => {
      const file = tmp.write(`${path}.http`, `GET ${base}/${path}\n`);
      return runCli(['stress', file, '-c', '2', '-d', '1s', '--timeout', '120000'], { env: { REQFLOW_STATE_DIR: join(tmp.dir, `state-${path}`) }, timeoutMs: 60_000 });
    }),
  );
  for (const result of results) {
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^reqflow: warning: requests still in flight 5 s after the end of the run were cancelled and are left out of the figures$/m);
    expect(result.stdout).not.toMatch(/stopped early/);
  }
});
