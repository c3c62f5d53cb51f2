/**
 * A connection error of the server's after (or instead of) the response head: nghttp2 answers it
 * with a GOAWAY and then stops reading, and Node reports nothing — the run once ended there with
 * exit 0 and no output, the rest of the file never sent. Raw h2c servers (prior knowledge) here.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli, tempDir } from './helpers/cli.js';
import { parseRecords } from './helpers/records.js';

const frame = (type: number, flags: number, stream: number, payload: Buffer): Buffer => {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(stream, 5);
  return Buffer.concat([head, payload]);
};
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

const servers: Array<Server | HttpServer> = [];
const sockets = new Set<Socket>();
const ports = new Map<string, number>();
let h1 = 0;
const tmp = tempDir('reqflow-h2-conn-');

function rawH2c(answer: (stream: number) => Buffer[]): Server {
  return createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
    let buffered = Buffer.alloc(0);
    let preface = false;
    socket.write(frame(4, 0, 0, Buffer.alloc(0)));
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (!preface) {
        if (buffered.length < 24) return;
        preface = true;
        buffered = buffered.subarray(24);
      }
      // Bounded: each pass takes one whole frame off the buffer.
      while (buffered.length >= 9) {
        const length = buffered.readUIntBE(0, 3);
        if (buffered.length < 9 + length) break;
        const [type, flags, stream] = [buffered[3], buffered[4] ?? 0, buffered.readUInt32BE(5)];
        buffered = buffered.subarray(9 + length);
        if (type === 4 && (flags & 1) === 0) socket.write(frame(4, 1, 0, Buffer.alloc(0)));
        if (type === 1) for (const bytes of answer(stream)) socket.write(bytes);
      }
    });
  });
}

const listen = async (server: Server | HttpServer): Promise<number> => {
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
      expect(result.stdout).toContain('after /after');
    }

    const tested = await cli('test', file(name));
    expect(tested.code).toBe(4);
    expect(tested.stdout + tested.stderr).toMatch(/ERROR .*broken/);
    expect(tested.stdout + tested.stderr).toMatch(/PASS .*after/);
  });
});
