/**
 * The built CLI as a running child process, for commands that wait for something (an OAuth
 * login waits for the browser): watch its stderr while it runs, then collect its exit.
 */
import { spawn } from 'node:child_process';
import { BIN, ROOT, type CliOptions, type CliResult } from './cli.js';

export interface LiveCli {
  /** Resolves with the first match of `pattern` in stderr (so far or later); rejects if the process exits first. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Sends a signal (Ctrl-C is SIGINT). */
  kill(signal?: NodeJS.Signals): void;
  /** The exit, with everything written. */
  done: Promise<CliResult>;
  stderr(): string;
}

export function startCli(args: string[], options: CliOptions = {}): LiveCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let exited = false;
  const listeners = new Set<() => void>();
  const notify = (): void => listeners.forEach((listener) => listener());
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
    notify();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
  const done = new Promise<CliResult>((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      exited = true;
      clearTimeout(timer);
      notify();
      resolvePromise({ code, stdout, stderr, signal });
    });
  });
  child.stdin.end(options.input ?? '');

  return {
    done,
    stderr: () => stderr,
    kill: (signal = 'SIGINT') => void child.kill(signal),
    waitForStderr(pattern, timeoutMs = 15_000) {
      return new Promise((resolvePromise, reject) => {
        const check = (): void => {
          const match = stderr.match(pattern);
          if (match) finish(() => resolvePromise(match));
          else if (exited) finish(() => reject(new Error(`CLI exited before printing ${pattern}; stderr:\n${stderr}\nstdout:\n${stdout}`)));
        };
        const limit = setTimeout(() => finish(() => reject(new Error(`no ${pattern} on stderr after ${timeoutMs} ms; stderr:\n${stderr}`))), timeoutMs);
        const finish = (action: () => void): void => {
          clearTimeout(limit);
          listeners.delete(check);
          action();
        };
        listeners.add(check);
        check();
      });
    },
  };
}
