/**
 * A connection error of the server's after (or instead of) the response head: nghttp2 answers it
 * with a GOAWAY and then stops reading, and Node reports nothing — the run once ended there with
 * exit 0 and no output, the rest of the file never sent; and where other requests kept the run
 * going (`reqflow test --jobs`), the request waited for them or for `--timeout`. Raw h2c servers
 * (prior knowledge) here.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createH2cServer, type Http2Server, type ServerHttp2Stream } from 'node:http2';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { h2Frame as frame, readH2Frames } from './helpers/h2-frame.js';
import { parseRecords } from './helpers/records.js';

/** HPACK: `:status 200` (static index 8), then `content-type: text/plain` as a literal. */
const HEAD_200 = Buffer.concat([Buffer.from([0x88, 0x00, 12]), Buffer.from('content-type'), Buffer.from([10]), Buffer.from('text/plain')]);
/** A literal header whose value makes the HEADERS frame longer than the 16,384-byte maximum. */
const HUGE_HEAD = Buffer.concat([Buffer.from([0x88, 0x00, 5]), Buffer.from('x-big'), Buffer.from([0x7f, 0xa1, 0x9b, 0x01]), Buffer.alloc(20_000, 0x41)]);

/** What each server sends on the request's stream once the request's HEADERS arrive. */
const SCENARIOS: Record<string, (stream: number) => Buffer[]> = {
  'oversize-data': (stream) => [frame(1, 4, stream, HEAD_200), frame(0, 1, stream, Buffer.alloc(20_000, 0x42))],
  'oversize-headers': (stream) => [frame(1, 4, stream, HUGE_HEAD)],
  'data-on-stream-0': (stream) => [frame(1, 4, stream, HEAD_200), frame(0, 0, 0, Buffer.from('data on stream 0'))],
};

const servers: Array<Server | HttpServer | Http2Server> = [];
const sockets = new Set<Socket>();
const ports = new Map<string, number>();
let h1 = 0;
const tmp = tempDir('reqflow-h2-conn-');
/** The healthy slow server's streams not yet answered. */
const held = new Set<ServerHttp2Stream>();

function rawH2c(answer: (stream: number) => Buffer[]): Server {
  return createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
    socket.write(frame(4, 0, 0, Buffer.alloc(0)));
    readH2Frames(socket, ({ type, stream }) => {
      if (type === 1) for (const bytes of answer(stream)) socket.write(bytes);
    });
  });
}

const listen = async (server: Server | HttpServer | Http2Server): Promise<number> => {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

beforeAll(async () => {
  for (const [name, answer] of Object.entries(SCENARIOS)) ports.set(name, await listen(rawH2c(answer)));
  h1 = await listen(createHttpServer((req, res) => res.end(`after ${req.url ?? ''}`)));
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  for (const stream of held) if (!stream.destroyed) stream.close();
  tmp.cleanup();
});

const file = (name: string): string => tmp.write(`${name}.http`, `### broken\nGET http://127.0.0.1:${ports.get(name) ?? 0}/x HTTP/2\n\n?? status == 200\n\n### after\nGET http://127.0.0.1:${h1}/after\n`);
const cli = (...args: string[]) => runCli(args, { cwd: tmp.dir, env: { REQFLOW_STATE_DIR: join(tmp.dir, 'state') } });

describe('an HTTP/2 connection error after (or instead of) the response head', () => {
  test.each(Object.keys(SCENARIOS))('%s: exit 4 naming the request, in every output mode, and the run goes on', async (name) => {
    const json = await cli('run', file(name), '-o', 'json');
    expect(json.code).toBe(4);
    const records = parseRecords(json.stdout);
    expect(records.map((record) => `${record.type} ${String(record.name)}`)).toEqual(['error broken', 'response after']);
    expect((records[0]?.error as { exitCode: number }).exitCode).toBe(4);
    expect(records[1]?.body).toBe('after /after');

    for (const mode of [['-v'], ['-o', 'raw']]) {
      const result = await cli('run', file(name), ...mode);
      expect(result.code).toBe(4);
      expect(result.stderr).toMatch(new RegExp(`^reqflow: .*127\\.0\\.0\\.1:${ports.get(name) ?? 0}`, 'm'));
      // As soon as nothing else is left to wait for: the session is known ended, and said so.
      expect(result.stderr).toMatch(new RegExp(`the HTTP/2 connection to 127\\.0\\.0\\.1:${ports.get(name) ?? 0} was ended by a protocol error`));
      expect(result.stdout).toContain('after /after');
    }

    const tested = await cli('test', file(name));
    expect(tested.code).toBe(4);
    expect(tested.stdout + tested.stderr).toMatch(/ERROR .*broken/);
    expect(tested.stdout + tested.stderr).toMatch(/PASS .*after/);
  });
});

describe('the same beside other requests under way (reqflow test --jobs 4)', () => {
  /** A healthy HTTP/2 server that answers only when told: its streams stay silent until then, and it counts the PINGs it gets. */
  async function slowServer(): Promise<{ port: number; release(): void; pings(): number }> {
    const waiting = new Set<ServerHttp2Stream>();
    let released = false;
    let pings = 0;
    const server = createH2cServer();
    server.on('session', (session) => session.on('ping', () => void pings++));
    const answer = (stream: ServerHttp2Stream): void => {
      if (stream.destroyed) return;
      stream.respond({ ':status': 200, 'content-type': 'text/plain' });
      stream.end('slow but fine');
    };
    server.on('stream', (stream) => {
      if (released) return answer(stream);
      waiting.add(stream);
      held.add(stream);
    });
    const port = await listen(server);
    return {
      port,
      release() {
        released = true;
        for (const stream of waiting) answer(stream);
        waiting.clear();
      },
      pings: () => pings,
    };
  }

  test.each(Object.keys(SCENARIOS))('%s: the request fails within seconds, naming the HTTP/2 protocol error, while healthy silent streams go on', async (name) => {
    const slow = await slowServer();
    // The hostile server's own, to see when reqflow lets go of the broken connection.
    const hostile = rawH2c(SCENARIOS[name] ?? (() => []));
    // Without the fix the slow answers come only after 40 s, and the broken request waits for them (or for --timeout).
    let fellBack = false;
    const fallback = setTimeout(() => {
      fellBack = true;
      slow.release();
    }, 40_000);
    let lettingGo: NodeJS.Timeout | undefined;
    let letGoFirst: boolean | undefined;
    hostile.on('connection', (socket: Socket) =>
      socket.once('close', () => {
        letGoFirst ??= !fellBack;
        // The healthy streams stay silent 2 s more: the watch must not take them for ended.
        lettingGo ??= setTimeout(() => slow.release(), 2_000);
      }),
    );
    const hostilePort = await listen(hostile);
    const dir = tempDir('reqflow-h2-jobs-');
    try {
      dir.write('broken.http', `### broken\nGET http://127.0.0.1:${hostilePort}/x HTTP/2\n\n?? status == 200\n`);
      for (const n of [1, 2, 3]) dir.write(`slow-${n}.http`, `### slow ${n}\nGET http://127.0.0.1:${slow.port}/slow-${n} HTTP/2\n`);
      const started = Date.now();
      const result = await runCli(['test', dir.dir, '--jobs', '4', '--timeout', '60000'], { cwd: dir.dir, env: { REQFLOW_STATE_DIR: join(dir.dir, 'state') }, timeoutMs: 90_000 });
      const output = result.stdout + result.stderr;
      expect(result.code).toBe(4);
      expect(output).toMatch(/ERROR .*broken/);
      expect(output).toMatch(new RegExp(`GET http://127\\.0\\.0\\.1:${hostilePort}/x: the HTTP/2 connection to 127\\.0\\.0\\.1:${hostilePort} was ended by a protocol error`));
      for (const n of [1, 2, 3]) expect(output).toMatch(new RegExp(`PASS .*slow-${n}\\.http`));
      // reqflow let go of the broken connection on its own, before the fallback (40 s) and --timeout (60 s).
      expect(letGoFirst).toBe(true);
      expect(Date.now() - started).toBeLessThan(30_000);
      // One PING per silence on the healthy connection, answered: no more, whatever the silence's length.
      expect(slow.pings()).toBe(1);
    } finally {
      clearTimeout(fallback);
      clearTimeout(lettingGo);
      slow.release();
      dir.cleanup();
    }
  }, 100_000);
});

describe('what is not an ended connection', () => {
  test('a server that stops reading a large upload is left to --timeout, not taken for a protocol error', async () => {
    // Windows open wide (SETTINGS_INITIAL_WINDOW_SIZE and the connection's), then not a byte read:
    // the body fills the socket, and reqflow's PING waits behind it — as in an ended session, but
    // with bytes waiting in the socket.
    const settings = Buffer.alloc(6);
    settings.writeUInt16BE(4, 0);
    settings.writeUInt32BE(0x7fffffff, 2);
    const wider = Buffer.alloc(4);
    wider.writeUInt32BE(0x7fffffff - 65_535, 0);
    const deaf = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
      socket.write(Buffer.concat([frame(4, 0, 0, settings), frame(8, 0, 0, wider), frame(4, 1, 0, Buffer.alloc(0))]));
      // Never let go until the suite ends: reqflow closes the connection itself (test/http2-stalled-upload.test.ts).
      socket.once('data', () => socket.pause());
    });
    const port = await listen(deaf);
    const dir = tempDir('reqflow-h2-deaf-');
    try {
      dir.write('upload.bin', Buffer.alloc(48 * 1024 * 1024, 0x61));
      dir.write('upload.http', `POST http://127.0.0.1:${port}/up HTTP/2\nContent-Type: application/octet-stream\n\n< ./upload.bin\n`);
      const result = await runCli(['run', join(dir.dir, 'upload.http'), '--timeout', '3000'], { cwd: dir.dir, env: { REQFLOW_STATE_DIR: join(dir.dir, 'state') }, timeoutMs: 30_000 });
      expect(result.code).toBe(4);
      expect(result.stderr).toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/up timed out after 3000 ms/);
      expect(result.stderr).not.toMatch(/protocol error/);
    } finally {
      dir.cleanup();
    }
  }, 60_000);
});
