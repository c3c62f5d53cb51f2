import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRecords, wantsJson } from './records.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = join(ROOT, 'bin', 'run.cjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  signal: NodeJS.Signals | null;
}

export interface CliOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  input?: string;
  timeoutMs?: number;
}

/**
 * Runs the built CLI (`bin/run.cjs`, after `npm run build`) as a child process, the way a user
 * does: no terminal, its own state folder unless the caller sets REQFLOW_STATE_DIR.
 */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Every line any `-o json` run of the suite prints must match the published schema.
      if (wantsJson(args)) {
        try {
          parseRecords(stdout);
        } catch (error) {
          reject(error);
          return;
        }
      }
      resolvePromise({ code, stdout, stderr, signal });
    });
    // A child that exits before reading stdin makes this write fail with EPIPE: not an error of the test.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** A temporary folder, removed by the returned cleanup. */
export function tempDir(prefix = 'reqflow-test-'): { dir: string; write(name: string, text: string | Uint8Array): string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    write(name, text) {
      const path = join(dir, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      return path;
    },
    // Retried: a child ending as the test ends (a terminal killed under it) may still write its files.
    cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 }),
  };
}

/** A command line run by `shell` (`/bin/sh`, `bash`) in `cwd`, as a user types or pastes it. */
export function runShell(shell: string, script: string, options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(shell, ['-c', script], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
  });
}

/**
 * Runs the built CLI with stdout and stderr on a pseudo-terminal (util-linux `script`), as a
 * user at a terminal does; resolves with what the terminal received (line ends as CRLF), ending
 * `exit=N`. Asynchronous: a test server in this process keeps answering. Needs `script`
 * (`needs(['script'])`, helpers/system-programs.ts).
 */
export function runOnTerminal(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<string> {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const child = spawn('script', ['-qc', `${command}; echo "exit=$?"`, '/dev/null'], { cwd: options.cwd ?? ROOT, env: { ...process.env, NO_COLOR: '1', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
  return new Promise((resolvePromise) =>
    child.on('close', () => {
      clearTimeout(timer);
      resolvePromise(output);
    }),
  );
}
