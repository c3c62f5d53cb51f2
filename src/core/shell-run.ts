/** Runs a shell value (`$(…)` in a profile or `-e`): imported only by a run that has one. */
import { lazyBuiltin } from './lazy-builtin.js';
import { VariableError } from './errors/index.js';

const SHELL_TIMEOUT_MS = 10_000;

/**
 * Runs `/bin/sh -c command` for the variable `name`: 10 s time-out, trailing newlines trimmed.
 * A non-zero exit, a time-out or empty output is a VariableError naming the variable.
 */
export function runShellValue(name: string, command: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<string> {
  const timeoutMs = options.timeoutMs ?? SHELL_TIMEOUT_MS;
  return new Promise((resolvePromise, reject) => {
    const { spawn } = lazyBuiltin<typeof import('node:child_process')>('node:child_process');
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
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
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new VariableError(`shell value of "${name}" could not start: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      const stderr = Buffer.concat(err).toString('utf8').trim().split('\n').slice(-1)[0] ?? '';
      if (timedOut) {
        reject(new VariableError(`shell value of "${name}" timed out after ${timeoutMs / 1000} s`, { hint: `check the command: $(${command})` }));
      } else if (code !== 0) {
        reject(new VariableError(`shell value of "${name}" failed with exit code ${code}${stderr ? `: ${stderr}` : ''}`, { hint: `the command was: $(${command})` }));
      } else {
        const value = Buffer.concat(out).toString('utf8').replace(/[\r\n]+$/, '');
        if (value === '') reject(new VariableError(`shell value of "${name}" printed nothing`, { hint: `the command was: $(${command})` }));
        else resolvePromise(value);
      }
    });
  });
}
