/**
 * The built CLI as a running child process, for commands that keep going (an OAuth login
 * waiting for the browser, a stream printing events): watch stdout and stderr while it runs,
 * signal it, then collect its exit.
 */
import { parseRecords, wantsJson } from './records.js';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { BIN, ROOT, type CliOptions, type CliResult } from './cli.js';

export interface LiveCli {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout (so far or later); rejects on time-out or if the process exits first. */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** The same for stderr. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Sends a signal (Ctrl-C is SIGINT). */
  kill(signal?: NodeJS.Signals): void;
  /** The exit, with everything written. */
  done: Promise<CliResult>;
}

const running = new Set<LiveCli>();

/** Kills every CLI still running (for afterEach: a failed test must not leave a login waiting). */
export function stopAllClis(): void {
  for (const cli of running) cli.kill('SIGKILL');
}

export function startCli(args: string[], options: CliOptions = {}): LiveCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const text = { stdout: '', stderr: '' };
  let exited = false;
  const listeners = new Set<() => void>();
  const notify = (): void => listeners.forEach((listener) => listener());
  child.stdout.on('data', (c: Buffer) => {
    text.stdout += c.toString('utf8');
    notify();
  });
  child.stderr.on('data', (c: Buffer) => {
    text.stderr += c.toString('utf8');
    notify();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
  const done = new Promise<CliResult>((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      exited = true;
      clearTimeout(timer);
      notify();
      if (wantsJson(args)) {
        try {
          parseRecords(text.stdout); // every -o json line must match the published schema
        } catch (error) {
          reject(error);
          return;
        }
      }
      resolvePromise({ code, stdout: text.stdout, stderr: text.stderr, signal });
    });
  });
  child.stdin.on('error', () => undefined);
  child.stdin.end(options.input ?? '');

  const waitFor = (stream: 'stdout' | 'stderr', pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> =>
    new Promise((resolvePromise, reject) => {
      const context = (): string => `\nstdout:\n${text.stdout}\nstderr:\n${text.stderr}`;
      const check = (): void => {
        const match = text[stream].match(pattern);
        if (match) finish(() => resolvePromise(match));
        else if (exited) finish(() => reject(new Error(`CLI exited before printing ${pattern} on ${stream}${context()}`)));
      };
      const limit = setTimeout(() => finish(() => reject(new Error(`no ${pattern} on ${stream} after ${timeoutMs} ms${context()}`))), timeoutMs);
      const finish = (action: () => void): void => {
        clearTimeout(limit);
        listeners.delete(check);
        action();
      };
      listeners.add(check);
      check();
    });

  const live: LiveCli = {
    child,
    done,
    stdout: () => text.stdout,
    stderr: () => text.stderr,
    kill: (signal = 'SIGINT') => void child.kill(signal),
    waitForStdout: (pattern, timeoutMs = 15_000) => waitFor('stdout', pattern, timeoutMs),
    waitForStderr: (pattern, timeoutMs = 15_000) => waitFor('stderr', pattern, timeoutMs),
  };
  running.add(live);
  void done.finally(() => running.delete(live));
  return live;
}
