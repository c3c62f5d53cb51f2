/**
 * A long request file runs in about the memory of a short one (issue 23): requests are parsed
 * ahead (checked, names kept) and built again when their turn comes, a run keeps no outcome,
 * and the heap is sized for a run that is mostly garbage. Held against the same command on a
 * 100-request file, so that a busy machine or a larger start-up does not move the figure; the
 * process reports its own peak (VmHWM from /proc: helpers/report-max-rss.cjs). Before, 20,000
 * requests of `--dry-run` peaked ~120 MB above 100 of them, and `--list` of 50,000 ~90 MB.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { BIN, ROOT, tempDir } from './helpers/cli.js';

/** `count` requests, each with its own URL and name, so that every one must be built to be shown. */
function requestFile(count: number): string {
  let text = '@base = http://127.0.0.1:9\n\n';
  for (let i = 0; i < count; i++) text += `### get ${i}\nGET {{base}}/items/${i}\nAccept: application/json\n\n`;
  return text;
}

/** Runs reqflow with `args`; resolves with its peak RSS (MB) and its stdout's lines. */
function peakOf(args: string[], cwd: string): Promise<{ peakMb: number; lines: string[]; code: number | null }> {
  const child = spawn(process.execPath, ['-r', join(ROOT, 'test', 'helpers', 'report-max-rss.cjs'), BIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, REQFLOW_STATE_DIR: join(cwd, 'state'), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'ignore', 'pipe'],
  });
  const out: Buffer[] = [];
  let report = '';
  child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (c: Buffer) => (report += c.toString('utf8')));
  return new Promise((resolve) => {
    child.on('close', (code) => resolve({ code, peakMb: (Number(report.trim()) * 1024) / 1e6, lines: Buffer.concat(out).toString('utf8').split('\n') }));
  });
}

describe('a long request file', () => {
  const dir = tempDir();
  let short = '';
  let long = '';
  let longer = '';
  beforeAll(() => {
    short = dir.write('short.http', requestFile(100));
    long = dir.write('long.http', requestFile(20_000));
    longer = dir.write('longer.http', requestFile(50_000));
  });
  afterAll(() => dir.cleanup());

  test('--dry-run of 20,000 requests builds every one, in order, within 40 MB of 100 requests', async () => {
    const small = await peakOf(['run', short, '--dry-run', '--no-history'], dir.dir);
    const large = await peakOf(['run', long, '--dry-run', '--no-history'], dir.dir);
    process.stdout.write(`--dry-run: 100 requests ${small.peakMb.toFixed(1)} MB, 20,000 requests ${large.peakMb.toFixed(1)} MB\n`);
    expect([small.code, large.code]).toEqual([0, 0]);
    const targets = large.lines.filter((line) => line.startsWith('GET '));
    expect(targets.length).toBe(20_000);
    expect(targets[0]).toBe('GET http://127.0.0.1:9/items/0');
    expect(targets[12_345]).toBe('GET http://127.0.0.1:9/items/12345');
    expect(targets.at(-1)).toBe('GET http://127.0.0.1:9/items/19999');
    expect(small.peakMb).toBeGreaterThan(20); // the report is real: no Node process is smaller
    expect(large.peakMb - small.peakMb).toBeLessThanOrEqual(40);
  }, 60_000);

  test('--list of 50,000 requests lists every one within 40 MB of 100 requests', async () => {
    const small = await peakOf(['run', short, '--list'], dir.dir);
    const large = await peakOf(['run', longer, '--list'], dir.dir);
    process.stdout.write(`--list: 100 requests ${small.peakMb.toFixed(1)} MB, 50,000 requests ${large.peakMb.toFixed(1)} MB\n`);
    expect([small.code, large.code]).toEqual([0, 0]);
    expect(large.lines.filter((line) => line !== '').length).toBe(50_000);
    expect(large.lines[49_999]).toBe('get 49999\tGET\t{{base}}/items/49999');
    expect(large.peakMb - small.peakMb).toBeLessThanOrEqual(40);
  }, 60_000);
});
