import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { BIN, ROOT, type CliOptions, type CliResult } from './cli.js';

/** A running CLI whose output can be watched as it arrives (streaming tests). */
export interface LiveCli {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches; rejects after `timeoutMs` or if the CLI exits first. */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves when the CLI exits. */
  done: Promise<CliResult>;
}

/** Starts the built CLI like `runCli` does (no terminal, NO_COLOR), without waiting for it. */
export function startCli(args: string[], options: CliOptions = {}): LiveCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const watchers = new Set<() => void>();
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString('utf8');
    for (const check of watchers) check();
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      for (const check of watchers) check();
      resolve({ code, stdout, stderr, signal });
    });
  });
  child.stdin.end(options.input ?? '');
  let exited = false;
  void done.then(() => (exited = true));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    done,
    waitForStdout: (pattern, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`timed out waiting for ${pattern} in stdout:\n${stdout}\nstderr:\n${stderr}`)), timeoutMs);
        const finish = (error?: Error): void => {
          clearTimeout(timer);
          watchers.delete(check);
          if (error) reject(error);
          else resolve();
        };
        const check = (): void => {
          if (pattern.test(stdout)) finish();
          else if (exited || child.exitCode !== null) finish(new Error(`the CLI exited before ${pattern} appeared in stdout:\n${stdout}\nstderr:\n${stderr}`));
        };
        watchers.add(check);
        check();
      }),
  };
}
