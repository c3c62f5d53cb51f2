/**
 * Hostile stream servers on 127.0.0.1: GraphQL errors that carry escape sequences and line
 * breaks in every field, event data and GraphQL results nested past 1,000 levels, and WebSocket
 * servers that break RFC 6455 (a bad close code or a reason that is not UTF-8 arriving with the
 * 101, a message or its fragments past 16 MiB, an upgrade never answered). Each is a clear
 * one-line error with its exit code, never a crash (exit 70), a hang, or a terminal reprogrammed.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createServer as createRawServer, type AddressInfo, type Server as RawServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { parseRecords } from '../helpers/records.js';
import { runCli, tempDir } from '../helpers/cli.js';

const tmp = tempDir('reqflow-hostile-streams-');
const env = { REQFLOW_STATE_DIR: join(tmp.dir, 'state') };
const DEPTH = 50_000;
const deep = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
const ESC = '\x1b]0;owned\x07\x1b[2J';
const MiB = 1024 * 1024;

let http: Server;
let raw: RawServer;
let httpUrl = '';
let wsUrl = '';
const sockets = new Set<Socket>();

/** One unmasked server frame (RFC 6455 §5.2); `announced` claims a length without sending the payload. */
function frame(opcode: number, payload: Buffer, options: { fin?: boolean; announced?: number } = {}): Buffer {
  const length = options.announced ?? payload.length;
  const first = (options.fin === false ? 0 : 0x80) | opcode;
  if (length < 126) return Buffer.concat([Buffer.from([first, length]), payload]);
  const head = Buffer.alloc(10);
  head[0] = first;
  head[1] = 127;
  head.writeBigUInt64BE(BigInt(length), 2);
  return Buffer.concat([head, payload]);
}

const closeFrame = (code: number, reason: Buffer): Buffer => {
  const body = Buffer.alloc(2);
  body.writeUInt16BE(code);
  return frame(8, Buffer.concat([body, reason]));
};

/** The 101 answering the upgrade `head` (its Sec-WebSocket-Key), and the frames of `path`, in one write. */
function answer(socket: Socket, head: string): void {
  const key = /sec-websocket-key: *(\S+)/i.exec(head)?.[1] ?? '';
  const path = /^GET (\S+)/.exec(head)?.[1] ?? '';
  if (path === '/silent') return; // never answers the upgrade
  const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
  const graphql = /sec-websocket-protocol: *graphql-transport-ws/i.test(head) ? 'Sec-WebSocket-Protocol: graphql-transport-ws\r\n' : '';
  const upgrade = Buffer.from(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n${graphql}\r\n`);
  const frames: Record<string, Buffer[]> = {
    // 1004 is reserved: no endpoint may send it (RFC 6455 §7.4.1).
    '/bad-code': [frame(1, Buffer.from('hi')), closeFrame(1004, Buffer.alloc(0))],
    '/bad-reason': [closeFrame(4000, Buffer.from([0xff, 0xfe]))],
    // A header claiming 17 MiB: the limit is known before a byte of it arrives.
    '/big': [frame(1, Buffer.alloc(0), { announced: 17 * MiB })],
    // A message that is never finished: fragments adding up past the limit.
    '/fragments': [frame(1, Buffer.from('part'), { fin: false }), frame(0, Buffer.alloc(0), { fin: false, announced: 16 * MiB })],
    '/deep': [frame(1, Buffer.from(deep)), frame(1, Buffer.from('{"after":1}')), closeFrame(1000, Buffer.alloc(0))],
  };
  if (path === '/graphql') {
    socket.write(upgrade);
    // graphql-ws: acknowledge the connection_init, then a result past the limit.
    socket.once('data', () => socket.end(Buffer.concat([frame(1, Buffer.from('{"type":"connection_ack"}')), frame(1, Buffer.alloc(0), { announced: 17 * MiB })])));
    return;
  }
  socket.end(Buffer.concat([upgrade, ...(frames[path] ?? [])]));
}

beforeAll(async () => {
  http = createServer((req, res) => {
    req.resume();
    if (req.url === '/errors') {
      const error = { message: `denied ${ESC}\nreqflow: all 12 requests passed`, locations: [{ line: `1${ESC}`, column: 2 }], path: ['user', `x\ny${ESC}`], extensions: { code: `E\n${ESC}` } };
      return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ data: null, errors: [error] }));
    }
    if (req.url === '/deep-result') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(`{"data":{"list":${deep}}}`);
    if (req.url === '/deep-events') return void res.writeHead(200, { 'Content-Type': 'text/event-stream' }).end(`data: ${deep}\n\ndata: {"after":1}\n\n`);
    if (req.url === '/deep-subscription') return void res.writeHead(200, { 'Content-Type': 'text/event-stream' }).end(`event: next\ndata: {"data":{"list":${deep}}}\n\nevent: complete\ndata:\n\n`);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  httpUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  raw = createRawServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined); // the client failing the connection resets it
    let head = '';
    const onData = (chunk: Buffer): void => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      answer(socket, head);
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  wsUrl = `ws://127.0.0.1:${(raw.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  http.closeAllConnections();
  await Promise.all([new Promise((resolve) => http.close(resolve)), new Promise((resolve) => raw.close(resolve))]);
  tmp.cleanup();
});

const noCrash = (stderr: string): void => expect(stderr).not.toMatch(/internal error|\n\s+at /);

test('GraphQL errors: the message, locations, path and code are each one line with their controls visible', async () => {
  const file = tmp.write('errors.http', `# @protocol graphql\nPOST ${httpUrl}/errors\n\n{ user { x } }\n`);
  const result = await runCli(['run', file], { env });
  expect(result.code).toBe(1);
  const output = result.stdout + result.stderr;
  // No escape character reaches the terminal (a location's `line` was printed as it came).
  expect(output).not.toContain('\x1b');
  expect(output).not.toContain('\x07');
  // A line feed in the server's text cannot make a line that reads as reqflow's own.
  expect(output).not.toMatch(/^reqflow: all 12 requests passed/m);
  expect(result.stderr).toContain('error: denied ␛]0;owned␇␛[2J␤reqflow: all 12 requests passed\n');
  expect(result.stderr).toContain('  at 1␛]0;owned␇␛[2J:2\n');
  expect(result.stderr).toContain('  path: user.x␤y␛]0;owned␇␛[2J\n');
  expect(result.stderr).toContain('  code: E␤␛]0;owned␇␛[2J\n');
});

test('a GraphQL result nested 50,000 levels deep is shown as the body it is (exit 0), not a crash', async () => {
  const file = tmp.write('deep-result.http', `# @protocol graphql\nPOST ${httpUrl}/deep-result\n\n{ list }\n`);
  for (const output of ['pretty', 'json']) {
    const result = await runCli(['run', file, '-o', output], { env });
    noCrash(result.stderr);
    expect({ output, code: result.code }).toEqual({ output, code: 0 });
    expect(result.stderr).toContain('is nested more than 1000 levels deep');
    expect(result.stdout).toContain(deep);
  }
});

test('event data nested 50,000 levels deep (SSE, a GraphQL subscription, a WebSocket message) is shown as text; the stream goes on', async () => {
  const sse = tmp.write('deep-events.http', `# @streaming true\nGET ${httpUrl}/deep-events\n`);
  const webSocket = tmp.write('deep-ws.http', `WEBSOCKET ${wsUrl}/deep\n`);
  const subscription = tmp.write('deep-subscription.http', `# @protocol graphql\nPOST ${httpUrl}/deep-subscription\n\nsubscription { list }\n`);
  for (const output of ['pretty', 'json']) {
    for (const file of [sse, webSocket]) {
      const events = await runCli(['run', file, '-o', output], { env });
      noCrash(events.stderr);
      expect({ file, output, code: events.code }).toEqual({ file, output, code: 0 });
      expect(events.stdout).toContain(deep);
      if (output === 'json') expect(parseRecords(events.stdout).map((record) => record.data)).toEqual([deep, { after: 1 }, undefined]);
    }
    const result = await runCli(['run', subscription, '-o', output], { env });
    noCrash(result.stderr);
    expect({ output, code: result.code }).toEqual({ output, code: 0 });
    expect(result.stdout).toContain(deep);
  }
});

test('a close code no endpoint may send, arriving with the 101: exit 4 naming it, after the message before it', async () => {
  const file = tmp.write('bad-code.http', `WEBSOCKET ${wsUrl}/bad-code\n`);
  const result = await runCli(['run', file], { env });
  expect(result.code).toBe(4);
  expect(result.stdout).toBe('hi\n');
  expect(result.stderr).toContain(`reqflow: stopped reading the stream after 1 event: the WebSocket server at 127.0.0.1:${(raw.address() as AddressInfo).port} broke the protocol: Invalid WebSocket frame: invalid status code 1004\n`);
  expect(result.stderr).not.toContain('1006');
});

test('a close reason that is not UTF-8: exit 4 saying so, not a bare 1006', async () => {
  const result = await runCli(['run', tmp.write('bad-reason.http', `WEBSOCKET ${wsUrl}/bad-reason\n`), '-o', 'json'], { env });
  expect(result.code).toBe(4);
  const [error] = parseRecords(result.stdout);
  expect(error?.error).toMatchObject({ exitCode: 4, message: expect.stringContaining('broke the protocol: Invalid WebSocket frame: invalid UTF-8 sequence') });
});

test('a WebSocket message, or the fragments of one, past 16 MiB: exit 4 at the limit, before its bytes are held', async () => {
  for (const path of ['/big', '/fragments']) {
    const result = await runCli(['run', tmp.write(`ws${path.slice(1)}.http`, `WEBSOCKET ${wsUrl}${path}\n`)], { env });
    expect({ path, code: result.code }).toEqual({ path, code: 4 });
    expect(result.stderr).toContain('reqflow: stopped reading the stream after 0 events: the server sent a WebSocket message larger than 16 MiB\n');
  }
});

test('a GraphQL subscription over a WebSocket whose result is past 16 MiB: exit 4 saying so', async () => {
  const file = tmp.write('graphql-ws.http', `# @protocol graphql\n# @transport ws\nPOST ${wsUrl}/graphql\n\nsubscription { list }\n`);
  const result = await runCli(['run', file], { env });
  noCrash(result.stderr);
  expect(result.code).toBe(4);
  expect(result.stderr).toContain('the server sent a WebSocket message larger than 16 MiB');
});

test('an upgrade the server never answers ends at --timeout as a time-out, with its hint', async () => {
  const result = await runCli(['run', tmp.write('silent.http', `WEBSOCKET ${wsUrl}/silent\n`), '--timeout', '300'], { env });
  expect(result.code).toBe(4);
  expect(result.stderr).toBe(`reqflow: GET ${wsUrl}/silent timed out after 300 ms\nhint: raise it with --timeout MS (or # @timeout in the request)\n`);
});
