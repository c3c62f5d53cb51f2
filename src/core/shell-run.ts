/** Runs a shell value (`$(…)` in a profile or `-e`), or a program by its argv: imported only by a run that has one. */
import { lazyBuiltin } from './lazy-builtin.js';
import { VariableError } from './errors/index.js';

export const SHELL_TIMEOUT_MS = 10_000;

/** How a program ended: its exit code (null: killed), its output, whether the time limit killed it. */
export interface ProgramResult {
  code: number | null;
  stdout: string;
  /** The last line of its standard error, trimmed. */
  stderrLine: string;
  timedOut: boolean;
  /** It printed more than `maxStdout` bytes: it was killed, and `stdout` is what came before. */
  overflow?: boolean;
}

/** What a shell value may print (held in memory, then registered as a secret): far above a token or a certificate. */
const SHELL_VALUE_MAX_BYTES = 4 * 1024 * 1024;

/** Of its standard error only the end is kept (its last line is all that is shown). */
const STDERR_TAIL = 8 * 1024;

/**
 * Runs `file` with `args` — no shell in between unless `file` is one — in a process group of its
 * own, killed whole (its children too) after `timeoutMs`, on `signal`, or once it printed more
 * than `maxStdout` bytes (what it prints is held in memory). Rejects only when the program cannot
 * start.
 */
export function runProgram(file: string, args: readonly string[], options: { timeoutMs?: number; signal?: AbortSignal; cwd?: string; maxStdout?: number } = {}): Promise<ProgramResult> {
  const timeoutMs = options.timeoutMs ?? SHELL_TIMEOUT_MS;
  return new Promise((resolvePromise, reject) => {
    const { spawn } = lazyBuiltin<typeof import('node:child_process')>('node:child_process');
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...(options.cwd !== undefined ? { cwd: options.cwd } : {}) });
    const out: Buffer[] = [];
    let err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let timedOut = false;
    let overflow = false;
    const kill = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL'); // the whole group: `sleep` children too
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    const onAbort = (): void => kill();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      if (overflow) return;
      outBytes += chunk.length;
      out.push(chunk);
      if (options.maxStdout !== undefined && outBytes > options.maxStdout) {
        overflow = true;
        kill();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err.push(chunk);
      errBytes += chunk.length;
      if (errBytes > 2 * STDERR_TAIL) {
        err = [Buffer.concat(err).subarray(-STDERR_TAIL)];
        errBytes = STDERR_TAIL;
      }
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      const stderrLine = Buffer.concat(err).toString('utf8').trim().split('\n').slice(-1)[0] ?? '';
      resolvePromise({ code, stdout: Buffer.concat(out).toString('utf8'), stderrLine, timedOut, ...(overflow ? { overflow } : {}) });
    });
  });
}

/**
 * Runs `/bin/sh -c command` for the variable `name`: 10 s time-out, trailing newlines trimmed.
 * A non-zero exit, a time-out or empty output is a VariableError naming the variable.
 */
export async function runShellValue(name: string, command: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<string> {
  const timeoutMs = options.timeoutMs ?? SHELL_TIMEOUT_MS;
  let result: ProgramResult;
  try {
    result = await runProgram('/bin/sh', ['-c', command], { ...options, timeoutMs, maxStdout: SHELL_VALUE_MAX_BYTES });
  } catch (error) {
    throw new VariableError(`shell value of "${name}" could not start: ${(error as Error).message}`);
  }
  const { code, stdout, stderrLine, timedOut, overflow } = result;
  if (overflow) throw new VariableError(`shell value of "${name}" printed more than ${SHELL_VALUE_MAX_BYTES / 1024 / 1024} MiB`, { hint: `a value is a token, a password or a file's name; the command was: $(${command})` });
  if (timedOut) throw new VariableError(`shell value of "${name}" timed out after ${timeoutMs / 1000} s`, { hint: `check the command: $(${command})` });
  if (code !== 0) throw new VariableError(`shell value of "${name}" failed with exit code ${code}${stderrLine ? `: ${stderrLine}` : ''}`, { hint: `the command was: $(${command})` });
  const value = stdout.replace(/[\r\n]+$/, '');
  if (value === '') throw new VariableError(`shell value of "${name}" printed nothing`, { hint: `the command was: $(${command})` });
  return value;
}
