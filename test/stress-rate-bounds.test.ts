/**
 * `reqflow stress --rate` low enough that a turn is more than a Node timer can hold away (2^31 ms,
 * about 24 days: `--rate 0.0000001`, or `--rate 0.0001` over hundreds of workers): Node waited
 * 1 ms instead, with a `TimeoutOverflowWarning` on stderr, so the run sent at once what the rate
 * said to spread out. Now the wait is taken in steps a timer holds: the second request is never
 * sent before Ctrl-C, which stops the run as documented (exit 130). Against a real server on
 * 127.0.0.1 that counts what it receives; no time is asserted.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { startCli } from './helpers/cli-live.js';
import { tempDir } from './helpers/cli.js';

const files = tempDir('reqflow-stress-rate-');
let server: Server;
let received = 0;
let firstReceived: () => void;
const first = new Promise<void>((resolve) => (firstReceived = resolve));

beforeAll(async () => {
  server = createServer((req, res) => {
    received++;
    firstReceived();
    req.resume();
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  files.write('api.http', `### ping\nGET http://127.0.0.1:${(server.address() as { port: number }).port}/ping\n`);
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  files.cleanup();
});

test('a turn weeks away is waited for, not sent at once: one request, then Ctrl-C ends the run with 130', async () => {
  const cli = startCli(['stress', 'api.http', '--requests', '2', '--workers', '2', '--rate', '0.0000001'], { cwd: files.dir, env: { REQFLOW_STATE_DIR: `${files.dir}/state` }, timeoutMs: 60_000 });
  await first;
  // The second worker's turn is 10^10 ms away: its wait began as the first request went out.
  cli.kill('SIGINT');
  const result = await cli.done;
  expect(result.stderr).not.toContain('TimeoutOverflowWarning');
  expect(received).toBe(1);
  expect(result.code).toBe(130);
});
