import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { BIN, ROOT } from './cli.js';

export interface Measured {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Peak RSS of the reqflow process, from /proc (VmHWM) at its exit. */
  peakMb: number;
  ms: number;
}

/** Runs the CLI in `cwd` with its peak RSS reported on fd 3 by a preloaded reporter; `nodeFlags` go to Node (a heap cap). */
export function runMeasured(args: string[], cwd: string, nodeFlags: string[] = []): Promise<Measured> {
  const started = Date.now();
  const child = spawn(process.execPath, [...nodeFlags, '-r', join(ROOT, 'test', 'helpers', 'report-max-rss.cjs'), BIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, REQFLOW_STATE_DIR: join(cwd, 'state'), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  // Kept to its first 64 KiB: some runs print a hostile body.
  child.stdout?.on('data', (c: Buffer) => (stdout = stdout.length < 65_536 ? stdout + c.toString('utf8') : stdout));
  let report = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (c: Buffer) => (report += c.toString('utf8')));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, peakMb: Number(report.trim()) / 1024, ms: Date.now() - started })));
}
