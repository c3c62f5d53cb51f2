/**
 * HTTP/2 requests the server never processed go once more on a new connection (RFC 9113): a
 * stream above a GOAWAY's last-stream-id (§6.8), one reset with REFUSED_STREAM (§8.7), one that
 * never left reqflow (its connection ended before it was written). Once: a server that refuses
 * again is exit 4 naming what it did. A stream at or below the last-stream-id that the server then
 * drops goes again only for an idempotent method, as HTTP/1.1's kept-alive resend. Raw h2c
 * servers (prior knowledge) here, which record what each connection received.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import { constants, createServer as createH2cServer, type Http2Server } from 'node:http2';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { h2Frame as frame, readH2Frames } from './helpers/h2-frame.js';
import { historyFileFor, historyLines } from './helpers/history-file.js';
import { parseRecords } from './helpers/records.js';

/** HPACK: `:status 200` (static index 8), then `content-type: text/plain` as a literal. */
const HEAD_200 = Buffer.concat([Buffer.from([0x88, 0x00, 12]), Buffer.from('content-type'), Buffer.from([10]), Buffer.from('text/plain')]);

/** A stream the server read whole: its id and its body. */
interface Received {
  stream: number;
  body: string;
}

/** One connection of a raw server: what it received, and what a scenario does with it. */
interface Connection {
  /** 1 for the server's first connection, 2 for the next, … */
  index: number;
  /** Streams read whole, in order. */
  received: Received[];
  /** The answer, and `after` in the same write. */
  answer(stream: number, after?: Buffer): void;
  refuse(stream: number): void;
  goaway(lastStreamId: number): void;
  drop(): void;
}

/** What a server does once a stream's request is whole (its HEADERS, and DATA up to END_STREAM). */
type Scenario = (connection: Connection, stream: number) => void;

const sockets = new Set<Socket>();
const servers: Array<Server | Http2Server> = [];
const tmp = tempDir('reqflow-h2-resend-');
const stateDir = join(tmp.dir, 'state');
tmp.write('.profiles.json', '[]');

/** A raw h2c server running `scenario`; `connections` holds what each connection received. */
async function rawServer(scenario: Scenario): Promise<{ base: string; connections: Connection[] }> {
  const connections: Connection[] = [];
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
    const bodies = new Map<number, string>();
    const connection: Connection = {
      index: connections.length + 1,
      received: [],
      // One write per answer: the head and the body arrive together.
      answer: (stream, after = Buffer.alloc(0)) => void socket.write(Buffer.concat([frame(1, 4, stream, HEAD_200), frame(0, 1, stream, Buffer.from(`connection ${connection.index}: ${bodies.get(stream) ?? ''}`)), after])),
      refuse: (stream) => void socket.write(frame(3, 0, stream, Buffer.from([0, 0, 0, 7]))),
      goaway: (lastStreamId) => {
        const payload = Buffer.alloc(8);
        payload.writeUInt32BE(lastStreamId, 0); // error code 0: NO_ERROR, a graceful shutdown
        socket.write(frame(7, 0, 0, payload));
      },
      drop: () => void socket.destroy(),
    };
    connections.push(connection);
    socket.write(frame(4, 0, 0, Buffer.alloc(0)));
    const whole = (stream: number): void => {
      connection.received.push({ stream, body: bodies.get(stream) ?? '' });
      scenario(connection, stream);
    };
    readH2Frames(socket, ({ type, flags, stream, payload }) => {
      if (type === 0) bodies.set(stream, (bodies.get(stream) ?? '') + payload.toString('utf8'));
      if ((type === 0 || type === 1) && (flags & 1) === 1) whole(stream);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections };
}

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  tmp.cleanup();
});

const cli = (...args: string[]) => runCli(args, { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: stateDir } });
/** What each connection received, as `stream body` lines. */
const seen = (connections: Connection[]): string[][] => connections.map((connection) => connection.received.map(({ stream, body }) => `${stream} ${body}`));
const post = (base: string, path: string, body: string): string => `POST ${base}${path} HTTP/2\nContent-Type: text/plain\n\n${body}\n`;

describe('GOAWAY below streams under way (reqflow test --jobs 4)', () => {
  let server: Awaited<ReturnType<typeof rawServer>>;
  beforeAll(async () => {
    // The first connection holds its streams until three are in, answers the lowest, then says
    // it processed no stream above it; later connections answer at once.
    server = await rawServer((connection) => {
      if (connection.index > 1) return connection.answer(connection.received.at(-1)?.stream ?? 0);
      if (connection.received.length < 3) return;
      const lowest = Math.min(...connection.received.map(({ stream }) => stream));
      connection.answer(lowest);
      connection.goaway(lowest);
    });
  });

  test('the two streams above its last-stream-id go again, once each, on one new connection: POSTs, bodies as written', async () => {
    for (const n of [1, 2, 3]) tmp.write(`goaway/p${n}.http`, `### p${n}\n${post(server.base, `/p${n}`, `body-${n}`)}`);
    const result = await cli('test', join(tmp.dir, 'goaway'), '--jobs', '4');
    expect(result.stdout).toMatch(/3 passed, 0 failed/);
    expect(result.code).toBe(0);
    const [first, second, ...more] = server.connections;
    expect(more).toEqual([]);
    expect(first?.received.map(({ body }) => body).sort()).toEqual(['body-1', 'body-2', 'body-3']);
    const answered = first?.received.find(({ stream }) => stream === Math.min(...first.received.map((r) => r.stream)))?.body;
    // Each request processed exactly once: the one answered on the first connection, the other two on the second.
    expect(second?.received.map(({ body }) => body).sort()).toEqual(['body-1', 'body-2', 'body-3'].filter((body) => body !== answered));
  });
});

describe('RST_STREAM REFUSED_STREAM (reqflow run)', () => {
  /** The first connection refuses every stream; later ones answer. */
  const refusingServer = () => rawServer((connection, stream) => (connection.index === 1 ? connection.refuse(stream) : connection.answer(stream)));
  const file = (name: string, base: string): string => tmp.write(`${name}.http`, `### upload\n${post(base, '/a', 'body-a')}\n### after\nGET ${base}/b HTTP/2\n`);

  test('the request goes again on a new connection, -v says so, and the history keeps one entry per request', async () => {
    const server = await refusingServer();
    const path = file('refused', server.base);
    const result = await cli('run', path, '-v');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`reqflow: ${server.base} refused the POST (HTTP/2 REFUSED_STREAM): sent again on a new connection\n`);
    expect(result.stdout).toContain('connection 2: body-a');
    expect(seen(server.connections)).toEqual([['1 body-a'], ['1 body-a', '3 ']]);
    const entries = historyLines(historyFileFor(stateDir, tmp.dir)).entries.filter((entry) => entry.file === path);
    expect(entries.map((entry) => `${entry.method} ${entry.status ?? 'none'}`)).toEqual(['POST 200', 'GET 200']);
  });

  test('-o json: one response record per request, the answer of the new connection', async () => {
    const server = await refusingServer();
    const result = await cli('run', file('refused-json', server.base), '-o', 'json');
    expect(result.code).toBe(0);
    expect(parseRecords(result.stdout).map((record) => `${record.type} ${String(record.status)} ${String(record.body)}`)).toEqual(['response 200 connection 2: body-a', 'response 200 connection 2: ']);
  });
});

describe('a connection nghttp2 ended before the request was written (reqflow run)', () => {
  test('the next request, never sent on it, goes on a new connection: a POST too', async () => {
    // The first connection answers its first stream and, in the same write, sends DATA on stream
    // 0 — a connection error: nghttp2 ends the connection, and Node says nothing of it.
    const server = await rawServer((connection, stream) => connection.answer(stream, connection.index === 1 ? frame(0, 0, 0, Buffer.from('data on stream 0')) : undefined));
    const file = tmp.write('ended.http', `### first\nGET ${server.base}/a HTTP/2\n\n### upload\n${post(server.base, '/b', 'body-b')}`);
    const result = await cli('run', file, '-v');
    expect(result.stderr).toContain(`reqflow: ${server.base} had ended the HTTP/2 connection before the POST went out: sent again on a new connection\n`);
    expect(result.code).toBe(0);
    // The POST never reached the first connection; the second got it once.
    expect(seen(server.connections)).toEqual([['1 '], ['1 body-b']]);
  });
});

describe('a server that refuses every time: one more try, then exit 4 naming what it did', () => {
  test('REFUSED_STREAM again on the new connection (reqflow run): one line, the run goes on, two streams per request in all', async () => {
    const server = await rawServer((connection, stream) => connection.refuse(stream));
    const file = tmp.write('refused-twice.http', `### upload\n${post(server.base, '/a', 'body-a')}\n### after\nGET ${server.base}/b HTTP/2\n`);
    const result = await cli('run', file);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(new RegExp(`^reqflow: POST ${server.base}/a: the server refused the request twice \\(HTTP/2 REFUSED_STREAM\\)\\nhint: .*\\nreqflow: GET ${server.base}/b: the server refused the request twice \\(HTTP/2 REFUSED_STREAM\\)\\n`));
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
    // The GET goes on the connection that refused the POST's second try (it refused only that stream), then once more on a new one.
    expect(seen(server.connections)).toEqual([['1 body-a'], ['1 body-a', '3 '], ['1 ']]);
  });

  test('GOAWAY (last-stream-id 0) on every connection (reqflow test --jobs 4): each request sent at most twice, each an ERROR naming GOAWAY', async () => {
    const server = await rawServer((connection) => connection.goaway(0));
    for (const n of [1, 2, 3]) tmp.write(`goaway-always/g${n}.http`, `### g${n}\n${post(server.base, `/g${n}`, `body-${n}`)}`);
    const result = await cli('test', join(tmp.dir, 'goaway-always'), '--jobs', '4');
    expect(result.code).toBe(4);
    expect(result.stdout).toMatch(/0 passed, 0 failed, 3 errors/);
    expect(result.stdout.match(/the server refused the request twice \(HTTP\/2 (?:[^)]*, then )?GOAWAY\)/g)).toHaveLength(3);
    const bodies = seen(server.connections).flat().map((line) => line.replace(/^\d+ /, ''));
    for (const n of [1, 2, 3]) expect(bodies.filter((body) => body === `body-${n}`).length).toBeLessThanOrEqual(2);
  });
});

describe('a stream at or below the last-stream-id, then the connection dropped: only an idempotent method goes again', () => {
  /** The first connection answers stream 1; at stream 3 it says it processed up to 3, then drops the connection. Later ones answer. */
  const droppingServer = () =>
    rawServer((connection, stream) => {
      if (connection.index > 1 || stream === 1) return connection.answer(stream);
      connection.goaway(stream);
      connection.drop();
    });

  test('a PUT goes again on a new connection, -v says so', async () => {
    const server = await droppingServer();
    const file = tmp.write('dropped-put.http', `### first\nGET ${server.base}/a HTTP/2\n\n### put\nPUT ${server.base}/x HTTP/2\nContent-Type: text/plain\n\nput-body\n`);
    const result = await cli('run', file, '-v');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`reqflow: ${server.base} closed the HTTP/2 connection before answering the PUT: sent again on a new connection\n`);
    expect(seen(server.connections)).toEqual([['1 ', '3 put-body'], ['1 put-body']]);
  });

  test('a POST is not sent again: exit 4, the server got it once', async () => {
    const server = await droppingServer();
    const file = tmp.write('dropped-post.http', `### first\nGET ${server.base}/a HTTP/2\n\n### post\n${post(server.base, '/x', 'post-body')}`);
    const result = await cli('run', file, '-v');
    expect(result.code).toBe(4);
    expect(result.stderr).not.toContain('sent again');
    expect(result.stderr).toContain(`reqflow: connection to ${new URL(server.base).host} was reset\n`);
    expect(seen(server.connections)).toEqual([['1 ', '3 post-body']]);
  });
});

describe('a large file body (sent from the disk as it is read)', () => {
  test('refused, it is sent again from the file, whole and byte for byte', async () => {
    // Node's server, for its flow control: the first connection refuses its first stream at its
    // HEADERS, before reading the body; a later one reads the body and answers its length and hash.
    const sessions: number[] = [];
    const received: string[] = [];
    const server = createH2cServer();
    server.on('session', (session) => {
      sessions.push(sessions.length + 1);
      session.on('error', () => undefined);
    });
    server.on('stream', (stream) => {
      stream.on('error', () => undefined);
      const index = sessions.length;
      if (index === 1) return void stream.close(constants.NGHTTP2_REFUSED_STREAM);
      const hash = createHash('sha256');
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        bytes += chunk.length;
      });
      stream.on('end', () => {
        received.push(`${index} ${bytes} ${hash.digest('hex')}`);
        stream.respond({ ':status': 200, 'content-type': 'text/plain' });
        stream.end('stored');
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Over the 1 MiB past which a file body is streamed (core/stages/request-body.ts).
    const content = Buffer.alloc(3 * 1024 * 1024 + 17, 'reqflow');
    tmp.write('big.bin', content);
    const file = tmp.write('big-upload.http', `POST ${base}/upload HTTP/2\nContent-Type: application/octet-stream\n\n< ./big.bin\n`);
    const result = await cli('run', file, '-v');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`reqflow: ${base} refused the POST (HTTP/2 REFUSED_STREAM): sent again on a new connection\n`);
    expect(received).toEqual([`2 ${content.length} ${createHash('sha256').update(content).digest('hex')}`]);
  });
});
