/**
 * A body without a length (no Content-Length, not chunked) ends when the connection does: a
 * server that closes it ends the body, one whose connection is reset cut it short — exit 4, as
 * curl's error 56, and as a reset in a chunked or counted body already was. Before, a reset read
 * as a normal end: a plain body, an SSE stream and a GraphQL subscription over SSE all exit 0.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';

const tmp = tempDir('reqflow-close-delimited-');
let server: Server;
let base = '';

/** `/reset-*`: the head and some body, then a reset; `/close-*`: the same, then an orderly close. */
function answer(socket: Socket, path: string): void {
  const sse = path.includes('sse');
  socket.write(`HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: ${sse ? 'text/event-stream' : 'text/plain'}\r\n\r\n`);
  socket.write(sse ? 'data: one\n\n' : 'hello partial');
  setTimeout(() => (path.startsWith('/reset') ? socket.resetAndDestroy() : socket.end()), 50);
}

beforeAll(async () => {
  server = createServer((socket) => {
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      if (head.includes('\r\n\r\n')) answer(socket, head.split(' ')[1] ?? '/');
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  tmp.cleanup();
});

const run = (name: string, text: string, ...args: string[]) => runCli(['run', tmp.write(name, text), ...args], { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });

describe('a body that ends with the connection', () => {
  test('closed: the body is whole, exit 0; reset: it was cut, exit 4', async () => {
    const closed = await run('closed.http', `GET ${base}/close-body\n`, '-o', 'raw');
    expect({ code: closed.code, stdout: closed.stdout }).toEqual({ code: 0, stdout: 'hello partial' });
    const reset = await run('reset.http', `GET ${base}/reset-body\n`, '-o', 'raw');
    expect(reset.code).toBe(4);
    expect(reset.stderr).toMatch(/reset|aborted|closed/i);
  });

  test('an event stream: closed ends it as the server did; reset is exit 4', async () => {
    const closed = await run('sse-closed.http', `# @streaming true\nGET ${base}/close-sse\n`);
    expect(closed.code).toBe(0);
    const reset = await run('sse-reset.http', `# @streaming true\nGET ${base}/reset-sse\n`);
    expect(reset.code).toBe(4);
  });
});
