/**
 * A large body passed through untouched (`-o raw`) arrives byte for byte in flat memory: the
 * issue's goal is a peak RSS of at most 64 MB for 100 MiB (`npm run bench` holds that figure).
 * Here the peak is held against the same run of a small body (what the body adds: at most
 * 16 MB), which a busy machine or a larger start-up does not move; and below 72 MB whatever
 * happens. The process reports its own peak
 * (VmHWM from /proc, preloaded with `node -r`: see helpers/report-max-rss.cjs), so no `/usr/bin/time` is needed.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { listenOnLoopback } from './servers/http-utils.js';
import { BIN, ROOT, tempDir } from './helpers/cli.js';

const MIB = 1024 * 1024;
const LARGE_MIB = 100;

/** 64 KiB of a JSON array's middle, different in every piece so that a lost or doubled piece shows. */
function piece(index: number): Buffer {
  return Buffer.from(`{"piece":${String(index).padStart(8, '0')},"fill":"${'x'.repeat(64 * 1024 - 31)}"},`);
}

describe('-o raw of a 100 MiB body', () => {
  let server: Server;
  let base = '';
  const sent = createHash('sha256');
  let sentBytes = 0;

  beforeAll(async () => {
    // The expected bytes: what the server will send, hashed once here.
    for (let i = 0; i < (LARGE_MIB * MIB) / (64 * 1024); i++) {
      const p = piece(i);
      sent.update(p);
      sentBytes += p.length;
    }
    server = createServer((req, res) => {
      if (req.url !== '/large') return void res.end('{"after":"large"}\n');
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(sentBytes) });
      let i = 0;
      const count = (LARGE_MIB * MIB) / (64 * 1024);
      const write = (): void => {
        while (i < count) if (!res.write(piece(i++))) return void res.once('drain', write);
        res.end();
      };
      write();
    });
    base = `http://127.0.0.1:${await listenOnLoopback(server)}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** The peak RSS (MB) of `reqflow run FILE -o raw -n NAME`, as the process reports it. */
  async function peakOfRun(file: string, name: string, cwd: string): Promise<number> {
    const child = spawn(process.execPath, ['-r', join(ROOT, 'test', 'helpers', 'report-max-rss.cjs'), BIN, 'run', file, '-o', 'raw', '-n', name], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, REQFLOW_STATE_DIR: join(cwd, 'state'), NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    });
    let report = '';
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (c: Buffer) => (report += c.toString('utf8')));
    expect(await new Promise<number | null>((resolve) => child.on('close', resolve))).toBe(0);
    return (Number(report.trim()) * 1024) / 1e6;
  }

  test('streams every byte, then the next request, in flat memory (the body adds at most 16 MB)', async () => {
    const dir = tempDir();
    try {
      const file = dir.write('large.http', `### large\nGET ${base}/large\n\n### after\nGET ${base}/small\n`);
      const child = spawn(process.execPath, ['-r', join(ROOT, 'test', 'helpers', 'report-max-rss.cjs'), BIN, 'run', file, '-o', 'raw'], {
        cwd: dir.dir,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, REQFLOW_STATE_DIR: join(dir.dir, 'state'), NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      });
      const got = createHash('sha256');
      let gotBytes = 0;
      let tail = Buffer.alloc(0);
      child.stdout?.on('data', (chunk: Buffer) => {
        gotBytes += chunk.length;
        // The last bytes are the second request's body; hash only the large one.
        const large = Math.max(0, Math.min(chunk.length, sentBytes - (gotBytes - chunk.length)));
        got.update(chunk.subarray(0, large));
        tail = Buffer.concat([tail, chunk.subarray(large)]);
      });
      let stderr = '';
      child.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      let report = '';
      (child.stdio[3] as NodeJS.ReadableStream).on('data', (c: Buffer) => (report += c.toString('utf8')));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));

      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(gotBytes - tail.length).toBe(sentBytes);
      expect(got.digest('hex')).toBe(sent.digest('hex'));
      expect(tail.toString('utf8')).toBe('{"after":"large"}\n');
      const peakMb = (Number(report.trim()) * 1024) / 1e6;
      const smallMb = await peakOfRun(file, 'after', dir.dir);
      process.stdout.write(`-o raw of ${LARGE_MIB} MiB: peak RSS ${peakMb.toFixed(1)} MB (a small body: ${smallMb.toFixed(1)} MB)\n`);
      expect(smallMb).toBeGreaterThan(20); // the report is real: no Node process is smaller
      expect(peakMb - smallMb).toBeLessThanOrEqual(16);
      expect(peakMb).toBeLessThanOrEqual(72);
    } finally {
      dir.cleanup();
    }
  }, 60_000);
});
