/**
 * A check, capture or reference that selects with JSONPath in a body that holds no document — an
 * empty 404, a body that is not JSON — finds nothing and says so ("got nothing"), as it does for a
 * path that matches nothing; never an internal error's words. A real server on 127.0.0.1.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';

const tmp = tempDir('reqflow-no-document-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/empty') res.writeHead(404, { 'Content-Type': 'text/plain' }).end();
    else if (req.url === '/bare') res.writeHead(404).end();
    else res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

test.each(['empty', 'bare', 'html'])('?? body $.x on a %s body: the check fails saying it got nothing (exit 1)', async (path) => {
  tmp.write(`${path}.http`, `GET ${base}/${path}\n?? body $.x == 1\n`);
  const result = await runCli(['test', `${path}.http`], { cwd: tmp.dir, env });
  expect(result.code).toBe(1);
  expect(result.stdout + result.stderr).toMatch(/expected body \$\.x == "1", got nothing/);
  expect(result.stdout + result.stderr).not.toMatch(/Cannot read properties|internal error/);
});
