/**
 * Timing of whole processes: each command is spawned, its stdout drained from a pipe, and its
 * wall time taken from spawn to exit. Commands of one comparison run interleaved (A B C, A B C,
 * ...) after a warm-up, so that drifting machine load hits all of them alike. On Linux the CPU
 * time (user + system) of each run is taken too: on a shared machine it is less noisy than wall.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reapedChildrenCpuMs } from './proc-cpu.js';

/** A command line to time: `label` names it in tables. */
export function command(label, file, args = [], options = {}) {
  return { label, file, args, ...options };
}

/**
 * Runs a command once. Resolves with its wall time in ms, exit code, stderr and (when
 * `capture`) stdout; `onStdout(chunk, now)` sees output as it arrives. Killed after `timeoutMs`.
 */
function runOnce(cmd, { env, cwd, timeoutMs = 120_000, capture = false, onStdout } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const cpuBefore = reapedChildrenCpuMs();
    const child = spawn(cmd.file, cmd.args, { env: cmd.env ?? env, cwd: cmd.cwd ?? cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (chunk) => {
      if (onStdout) onStdout(chunk, performance.timeOrigin + performance.now());
      if (capture) out.push(chunk);
    });
    child.stderr.on('data', (chunk) => {
      if (stderr.length < 20_000) stderr += chunk;
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      // 'close' comes after libuv reaped the child, so its CPU time is counted by now.
      const cpuMs = reapedChildrenCpuMs() - cpuBefore;
      if (timedOut) reject(new Error(`${cmd.label}: killed after ${timeoutMs} ms`));
      else resolve({ ms, cpuMs, code, stderr, stdout: capture ? Buffer.concat(out).toString('utf8') : undefined });
    });
  });
}

/** Runs once and fails loudly unless the exit code is 0 (a bench of failing commands means nothing). */
export async function runChecked(cmd, options) {
  const result = await runOnce(cmd, options);
  if (result.code !== 0) throw new Error(`${cmd.label} exited ${result.code}: ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return result;
}

/**
 * Interleaved timing: `warmup` unmeasured rounds, then `runs` rounds. Returns, per label, the
 * summary of the wall times and `cpuMean`, the mean CPU time of a run (the mean, not the median:
 * each run's CPU time is counted in 10 ms ticks, and only their mean is finer than that).
 */
export async function compare(commands, { warmup = 2, runs = 10, ...options } = {}) {
  const samples = new Map(commands.map((cmd) => [cmd.label, { wall: [], cpu: [] }]));
  for (let round = 0; round < warmup + runs; round++) {
    for (const cmd of commands) {
      const { ms, cpuMs } = await runChecked(cmd, options);
      if (round < warmup) continue;
      samples.get(cmd.label).wall.push(ms);
      samples.get(cmd.label).cpu.push(cpuMs);
    }
  }
  const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;
  return Object.fromEntries([...samples].map(([label, { wall, cpu }]) => [label, { ...summarize(wall), cpuMean: mean(cpu) }]));
}

/**
 * Wall time and peak RSS of one run under `/usr/bin/time -v` (the RSS is the command's own,
 * not time's). Stdout is drained from a pipe.
 */
export async function timeVerbose(cmd, options = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'reqflow-bench-time-'));
  try {
    const report = join(dir, 'time.txt');
    const result = await runChecked({ ...cmd, file: '/usr/bin/time', args: ['-v', '-o', report, cmd.file, ...cmd.args] }, options);
    const text = readFileSync(report, 'utf8');
    const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(text)?.[1]);
    return { ms: result.ms, rssMb: rssKb / 1024 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Median (and friends) of a list of numbers. */
export function summarize(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => {
    if (sorted.length === 0) return NaN;
    const index = (sorted.length - 1) * q;
    const low = Math.floor(index);
    const high = Math.ceil(index);
    return sorted[low] + (sorted[high] - sorted[low]) * (index - low);
  };
  return { median: at(0.5), p99: at(0.99), min: sorted[0], max: sorted[sorted.length - 1], n: sorted.length };
}
