import type { Readable } from 'node:stream';
import { lazyBuiltin } from '../../core/lazy-builtin.js';

/**
 * Keeps memory flat while a large body passes through untouched (`-o raw`, non-JSON bodies).
 * Measured on 100 MiB `-o raw` (peak RSS 87 MB before, goal ≤ 64 MB), two costs dominate:
 * - Node reads the socket into a fresh buffer each time and frees it only when the garbage
 *   collector finds the small object holding it. Passing bytes through makes almost no other
 *   garbage, so V8 lets ~64 MiB of dead buffers pile up (its external-memory soft limit).
 *   A young-generation collection every 2 MiB frees them early (well under 1 ms each).
 * - TurboFan optimizing the stream plumbing takes ~7 MB of compiler memory and buys nothing
 *   when JavaScript only hands 64 KiB chunks on; it is paused for such a body, then restored.
 * Bodies under 1 MiB never pay for either.
 */
const FIRST_AT = 1024 * 1024; // TurboFan starts early: later than this, its memory is already spent
const EVERY = 2 * 1024 * 1024;

type Collect = (options: { type: 'minor' }) => void;
let collect: Collect | null | undefined;
let pausedCompilers = 0;

/** Watches `source` until it ends; call the returned function when the body is done. */
export function watchPassThrough(source: Readable): () => void {
  let total = 0;
  let paused = false;
  const onData = (chunk: Buffer): void => {
    const before = total;
    total += chunk.length;
    if (total < FIRST_AT || Math.floor(total / EVERY) === Math.floor(before / EVERY)) return;
    if (!paused) paused = pauseOptimizingCompiler();
    if (collect === undefined) collect = youngCollector();
    collect?.({ type: 'minor' });
  };
  source.on('data', onData);
  return () => {
    source.removeListener('data', onData);
    if (paused) resumeOptimizingCompiler(); // once: cleanup may run for both 'error' and 'close'
    paused = false;
  };
}

/** `gc` from a fresh context: `--expose-gc` set at run time applies to contexts made after it. */
function youngCollector(): Collect | null {
  try {
    const v8 = lazyBuiltin<typeof import('node:v8')>('node:v8');
    v8.setFlagsFromString('--expose-gc');
    const gc = lazyBuiltin<typeof import('node:vm')>('node:vm').runInNewContext('gc') as unknown;
    v8.setFlagsFromString('--no-expose-gc');
    return typeof gc === 'function' ? (gc as Collect) : null;
  } catch {
    return null; // a runtime without the flag: memory is then whatever V8 decides
  }
}

/** Leaves a compiler choice made on the command line (`node --no-opt`, NODE_OPTIONS) alone. */
const compilerChosenByUser = /--(no-)?(opt|turbofan)\b/.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`);

function pauseOptimizingCompiler(): boolean {
  if (compilerChosenByUser) return false;
  if (pausedCompilers++ === 0) lazyBuiltin<typeof import('node:v8')>('node:v8').setFlagsFromString('--no-turbofan');
  return true;
}

function resumeOptimizingCompiler(): void {
  if (--pausedCompilers === 0) lazyBuiltin<typeof import('node:v8')>('node:v8').setFlagsFromString('--turbofan');
}
