/**
 * `--unix-socket PATH` against a real HTTP server listening on a Unix socket (as the Docker
 * daemon does): the URL gives the path and the Host header, the socket the connection; one
 * connection serves a whole file; no proxy is used; a missing or dead socket is exit 4 naming it.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { parseRecords } from './helpers/records.js';

const tmp = tempDir('reqflow-sock-');
const socket = join(tmp.dir, 'api.sock');
let server: Server;
let connections = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, path: req.url, host: req.headers.host }));
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(socket, resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

const run = (name: string, text: string, ...args: string[]) =>
  runCli(['run', tmp.write(name, text), ...args], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state'), http_proxy: 'http://127.0.0.1:9', all_proxy: 'http://127.0.0.1:9' } });

test('requests go to the socket, path and Host from the URL, one connection for the file, no proxy', async () => {
  const before = connections;
  const result = await run('docker.http', 'GET http://localhost/v1.41/info\n\n###\nPOST http://localhost/containers/create?name=x\nContent-Type: application/json\n\n{}\n', '--unix-socket', 'api.sock', '-o', 'json');
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(parseRecords(result.stdout).map((record) => record.body)).toEqual([
    { method: 'GET', path: '/v1.41/info', host: 'localhost' },
    { method: 'POST', path: '/containers/create?name=x', host: 'localhost' },
  ]);
  expect(connections - before).toBe(1);
});

test('no socket at the path: exit 4 naming it', async () => {
  const missing = join(tmp.dir, 'missing.sock');
  const result = await run('missing.http', 'GET http://localhost/info\n', '--unix-socket', missing);
  expect(result.code).toBe(4);
  expect(result.stderr).toBe(`reqflow: no Unix socket at ${missing}\nhint: is the daemon running? check the path given to --unix-socket\n`);
});

test('a socket file nobody listens on (the daemon crashed): exit 4, connection refused', async () => {
  const dead = join(tmp.dir, 'dead.sock');
  // A daemon killed with SIGKILL leaves its socket file behind.
  const daemon = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(dead)}, () => console.log('up'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => daemon.stdout.once('data', resolve));
  daemon.kill('SIGKILL');
  await new Promise((resolve) => daemon.once('exit', resolve));
  expect(existsSync(dead)).toBe(true);
  const result = await run('dead.http', 'GET http://localhost/info\n', '--unix-socket', dead);
  expect(result.code).toBe(4);
  expect(result.stderr).toBe(`reqflow: connection refused by the Unix socket ${dead}\nhint: nothing is listening on it: is the daemon running?\n`);
});

test('HTTP/2 in the request line over a Unix socket is refused before anything is sent', async () => {
  const before = connections;
  const result = await run('h2.http', 'GET http://localhost/info HTTP/2\n', '--unix-socket', 'api.sock');
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/says HTTP\/2, which reqflow does not speak over --unix-socket/);
  expect(connections).toBe(before);
});
