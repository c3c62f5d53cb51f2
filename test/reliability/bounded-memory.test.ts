/**
 * Hostile servers that try to make reqflow hold without bound: an endless header, an endless
 * server-sent event, an endless stream of tiny events, an endless stream of 1xx interim
 * responses, an endless JSON number or literal, a body nested 100,000 levels deep. Each ends
 * with a clear error (or a bounded fallback) in bounded time, and the process's peak RSS — read
 * from /proc (VmHWM) by a preloaded reporter, not guessed — stays under 256 MB.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { BIN, ROOT, tempDir } from '../helpers/cli.js';
import { startRawServer } from '../helpers/fault-server.js';
import { type Measured, runMeasured as measure } from '../helpers/run-measured.js';
import { needs } from '../helpers/system-programs.js';

const LIMIT_MB = 256;
const tmp = tempDir('reqflow-bounded-');
let server: Awaited<ReturnType<typeof startRawServer>>;
let base = '';

/** Writes `chunk` as fast as the socket takes it, until the client goes away. */
function pour(socket: Socket, chunk: string | Buffer): void {
  const more = (): void => {
    while (socket.writable && socket.write(chunk));
    if (socket.writable) socket.once('drain', more);
  };
  more();
}

/** Writes `chunk` until `bytes` are written, then ends: a body whose end shows the client got through it. */
function pourUpTo(socket: Socket, chunk: Buffer, bytes: number): void {
  let sent = 0;
  const more = (): void => {
    while (socket.writable && sent < bytes) {
      sent += chunk.length;
      if (!socket.write(chunk)) return void socket.once('drain', more);
    }
    socket.end();
  };
  more();
}

/** A 64 KiB chunk of `line` repeated. */
const linesOf = (line: string): Buffer => Buffer.from(line.repeat(Math.ceil(65_536 / line.length)));

/**
 * One server-sent event that never ends, of each shape of line: [name, a chunk of its lines, MiB
 * sent, how it ends]: at the 16 MiB event limit, or with the body (the unfinished event dropped). Each line was a string in an array (an empty one costing ~20 bytes: 16 MiB of `data`
 * lines took 380 MB), and a data line cut from a chunk kept the whole chunk alive (a 20-byte line
 * after 64 KB of comment, chunk after chunk: the RSS grew with the body).
 */
const SSE_SHAPES: Array<[string, Buffer, number, 'limit' | 'end']> = [
  ['empty data lines', linesOf('data\n'), 128, 'limit'],
  ['short data lines', linesOf('data:x\n'), 128, 'limit'],
  ['data lines behind 64 KB comments', Buffer.from(`:${'p'.repeat(65_000)}\ndata:${'a'.repeat(20)}\n`), 256, 'end'],
  ['comments', linesOf(':\n'), 64, 'end'],
  ['id lines', linesOf('id: 1\n'), 64, 'end'],
  ['event lines', linesOf('event: e\n'), 64, 'end'],
  ['retry lines', linesOf('retry: 1\n'), 64, 'end'],
  ['unknown field names without values', linesOf('x\n'), 64, 'end'],
];
/** Peak RSS for one event's worth of lines: the 16 MiB the limit allows, its text and the process (~90 MB while streaming). */
const SSE_LIMIT_MB = 160;

/** An endless body: no length, sent until the client goes away. */
const endless = (type: string, extra = ''): string => `HTTP/1.1 200 OK\r\nContent-Type: ${type}\r\n${extra}Connection: close\r\n\r\n`;

beforeAll(async () => {
  // gzip members one after another are one gzip body: each 8 MiB of zeros sent as ~8 KiB.
  const bombMember = gzipSync(Buffer.alloc(8 * 1024 * 1024));
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  server = await startRawServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', (data) => {
      const path = data.toString('latin1').split(' ')[1] ?? '';
      if (path === '/endless-header') return void (socket.write('HTTP/1.1 200 OK\r\nX-Endless: '), pour(socket, 'a'.repeat(64 * 1024)));
      if (path === '/endless-event') return void (socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: '), pour(socket, 'x'.repeat(64 * 1024)));
      const json = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n';
      if (path === '/endless-number') return void (socket.write(`${json}[`), pour(socket, '1'.repeat(64 * 1024)));
      if (path === '/endless-literal') return void (socket.write(`${json}[t`), pour(socket, 'r'.repeat(64 * 1024)));
      if (path === '/many-events') return void (socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n'), pour(socket, 'data: x\n\n'.repeat(6554)));
      const shape = SSE_SHAPES.find(([name]) => path === `/sse-shape/${encodeURIComponent(name)}`);
      if (shape) return void (socket.write(endless('text/event-stream')), pourUpTo(socket, shape[1], shape[2] * 1024 * 1024));
      if (path === '/endless-json') return void (socket.write(endless('application/json')), pour(socket, 'a'.repeat(64 * 1024)));
      if (path === '/endless-line') return void (socket.write(endless('text/plain')), pour(socket, 'x'.repeat(64 * 1024)));
      if (path.startsWith('/bomb')) {
        socket.write(endless(path === '/bomb-json' ? 'application/json' : 'application/octet-stream', 'Content-Encoding: gzip\r\n'));
        return void pour(socket, bombMember);
      }
      if (path === '/interim') return void pour(socket, 'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n'.repeat(200));
      socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${deep.length}\r\nConnection: close\r\n\r\n${deep}`);
    });
  });
  base = server.url;
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const runMeasured = (args: string[]): Promise<Measured> => measure(args, tmp.dir);

const file = (name: string, text: string): string => tmp.write(name, text.replaceAll('BASE', base));

test('an endless response header: exit 4 naming it, bounded memory', async () => {
  const result = await runMeasured(['run', file('header.http', 'GET BASE/endless-header\n'), '--timeout', '10000']);
  expect(result.code).toBe(4);
  expect(result.stderr).toMatch(/^reqflow: 127\.0\.0\.1:\d+ sent response headers over the 16 KiB limit\n/);
  expect(result.peakMb).toBeGreaterThan(0);
  expect(result.peakMb).toBeLessThan(LIMIT_MB);
  expect(result.ms).toBeLessThan(10_000);
});

test('an endless server-sent event: exit 4 at 16 MiB, bounded memory', async () => {
  const result = await runMeasured(['run', file('event.http', '# @streaming true\nGET BASE/endless-event\n')]);
  expect(result.code).toBe(4);
  expect(result.stderr).toMatch(/16 MiB/);
  expect(result.peakMb).toBeLessThan(LIMIT_MB);
});

test.each(SSE_SHAPES.map(([name, , , end]) => [name, end]))('one server-sent event of %s: memory bounded by the 16 MiB event limit, not by how many lines it has', async (name, end) => {
  const result = await runMeasured(['run', file(`sse-${name.replace(/\W+/g, '-')}.http`, `# @streaming true\nGET BASE/sse-shape/${encodeURIComponent(name)}\n`), '-o', 'json']);
  expect(result.stderr).not.toMatch(/internal error|heap out of memory/);
  expect(result.code).toBe(end === 'limit' ? 4 : 0);
  if (end === 'limit') expect(result.stderr).toMatch(/the server sent an event larger than 16 MiB\n/);
  expect(result.peakMb).toBeGreaterThan(0);
  expect(result.peakMb).toBeLessThan(SSE_LIMIT_MB);
}, 120_000); // a few seconds each here; CPU-bound, so several times that on a busy machine

test('an endless stream of tiny events: constant memory however many arrive', async () => {
  // Each event used to leave a few hundred bytes behind (~450 MB by 600,000 events). The old
  // space is capped at 96 MB: a leak ends in V8's out-of-memory abort, whatever the machine's
  // load; the peak RSS alone (garbage waiting for a busy machine's collector) varied 200–271 MB.
  // 300,000 events: such a leak would need over twice the 96 MB.
  const result = await measure(['run', file('many.http', '# @streaming true\nGET BASE/many-events\n'), '-o', 'raw', '--max-events', '300000'], tmp.dir, ['--max-old-space-size=96']);
  expect(result.stderr).not.toMatch(/heap out of memory/);
  expect(result.code).toBe(0);
  expect(result.peakMb).toBeGreaterThan(0);
  expect(result.peakMb).toBeLessThan(LIMIT_MB);
}, 180_000); // ~5 s here; CPU-bound, so several times that on a busy machine

const tooLarge = /^reqflow: response is larger than --max-size \(16777216 bytes\)\nhint: raise --max-size, or redirect it to a file or a pipe with -o raw \(no filter\), which needs no limit\n$/;

test.each([
  ['an endless JSON body, -o json', 'GET BASE/endless-json', ['-o', 'json']],
  ['an endless JSON body, --filter', 'GET BASE/endless-json', ['--filter', 'a', '-o', 'raw']],
  ['an event stream without @streaming, -o json', 'GET BASE/many-events', ['-o', 'json']],
  ['a gzip bomb, -o json', 'GET BASE/bomb-json', ['-o', 'json']],
  ['a gzip bomb, --filter', 'GET BASE/bomb-json', ['--filter', 'a', '-o', 'raw']],
])('%s with default flags: exit 4 at --max-size, bounded memory', async (name, request, args) => {
  const result = await runMeasured(['run', file(`${name.replace(/\W+/g, '-')}.http`, `${request}\n`), ...args]);
  expect(result.code).toBe(4);
  expect(result.stderr).toMatch(tooLarge);
  expect(result.peakMb).toBeGreaterThan(0);
  expect(result.peakMb).toBeLessThan(LIMIT_MB);
}, 30_000);

/** Runs the CLI with stdout on a pseudo-terminal (util-linux `script`); its peak RSS goes to a file. */
function runOnTerminal(args: string[]): Promise<{ output: string; peakMb: number }> {
  const report = join(tmp.dir, 'tty-rss');
  const command = [process.execPath, '-r', join(ROOT, 'test', 'helpers', 'report-max-rss.cjs'), BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const child = spawn('script', ['-qc', `${command} 3>'${report}'; echo "exit=$?"`, '/dev/null'], { cwd: tmp.dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, REQFLOW_STATE_DIR: join(tmp.dir, 'state'), NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'ignore'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise((resolve) => child.on('close', () => resolve({ output: output.replace(/\r/g, ''), peakMb: Number(readFileSync(report, 'utf8').trim()) / 1024 })));
}

needs(['script'], 'the runs on a terminal').test.each([
  ['a gzip bomb, -o raw', 'GET BASE/bomb', ['-o', 'raw']],
  ['a gzip bomb, pretty', 'GET BASE/bomb', []],
  ['an endless line of text, pretty', 'GET BASE/endless-line', []],
  ['an endless line of text, -o raw', 'GET BASE/endless-line', ['-o', 'raw']],
])('on a terminal, %s with default flags: exit 4 at --max-size, a hint that fits, bounded memory', async (name, request, args) => {
  const result = await runOnTerminal(['run', file(`tty-${name.replace(/\W+/g, '-')}.http`, `${request}\n`), ...args]);
  expect(result.output).toMatch(/reqflow: response is larger than --max-size \(16777216 bytes\)\nhint: raise --max-size, or redirect it to a file or a pipe with -o raw/);
  expect(result.output).toContain('exit=4');
  expect(result.peakMb).toBeGreaterThan(0);
  expect(result.peakMb).toBeLessThan(LIMIT_MB);
}, 30_000);

test('an endless stream of 1xx interim responses: exit 4, bounded memory and time', async () => {
  const result = await runMeasured(['run', file('interim.http', 'GET BASE/interim\n'), '--timeout', '30000']);
  expect(result.code).toBe(4);
  expect(result.stderr).toMatch(/more than 100 interim \(1xx\) responses/);
  expect(result.peakMb).toBeLessThan(LIMIT_MB);
  expect(result.ms).toBeLessThan(10_000);
});

test('a body nested 100,000 levels deep, pretty and -o json: bounded memory', async () => {
  for (const output of ['pretty', 'json']) {
    const result = await runMeasured(['run', file('deep.http', 'GET BASE/deep\n'), '-o', output]);
    expect({ output, code: result.code }).toEqual({ output, code: 0 });
    expect(result.peakMb).toBeLessThan(LIMIT_MB);
  }
});

test('an endless JSON number: exit 4 at the token cap (1 MiB, or --max-size if smaller), bounded memory', async () => {
  const capped = await runMeasured(['run', file('number.http', 'GET BASE/endless-number\n')]);
  expect(capped.code).toBe(4);
  expect(capped.stderr).toMatch(/^reqflow: response holds a JSON number longer than 1048576 bytes: not pretty-printed$/m);
  expect(capped.peakMb).toBeLessThan(LIMIT_MB);
  expect(capped.ms).toBeLessThan(10_000);
  const maxSize = await runMeasured(['run', file('number.http', 'GET BASE/endless-number\n'), '--max-size', '100000']);
  expect(maxSize.code).toBe(4);
  expect(maxSize.stderr).toMatch(/longer than 100000 bytes/);
});

test('an endless JSON literal is not JSON: shown as text (bounded) until --max-time', async () => {
  const result = await runMeasured(['run', file('literal.http', 'GET BASE/endless-literal\n'), '--max-time', '3000']);
  expect(result.stderr).toContain('response says JSON but the body is not valid JSON (Unexpected token "trrrrr"');
  expect(result.stderr).toContain('took longer than --max-time (3000 ms)'); // what ended it
  expect(result.code).toBe(4);
  expect(result.peakMb).toBeLessThan(LIMIT_MB);
  expect(result.ms).toBeLessThan(20_000); // a hang only: the run itself lasts --max-time, 3 s
});
