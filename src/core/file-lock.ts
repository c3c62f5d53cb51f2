/**
 * A lock beside a file, for the read-modify-write steps that runs at once must take in turn
 * (the history's rotation, the trust store, an OAuth refresh). A folder, made or not atomically by `mkdir`: no
 * native module, and nothing left open. A lock older than any such step was left by a killed run,
 * and is taken over.
 */
import { mkdirSync, rmdirSync, statSync } from 'node:fs';

/** How long a run waits for another's step, and when a lock is taken to be a killed run's. */
const LOCK_WAIT_MS = 2_000;
const LOCK_STALE_MS = 10_000;

/** One try at the lock: true when taken, false when another holds it, undefined when it cannot be made here. */
function tryLock(lock: string, staleMs: number): boolean | undefined {
  try {
    mkdirSync(lock, { mode: 0o700 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
  }
  try {
    if (Date.now() - statSync(lock).mtimeMs > staleMs) rmdirSync(lock);
  } catch {
    // Gone meanwhile: the next try may have it.
  }
  return false;
}

/** The lock, waited for by blocking (a synchronous step holds it for a moment only). */
function takeLock(lock: string): boolean {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const taken = tryLock(lock, LOCK_STALE_MS);
    if (taken !== false) return taken === true;
    if (Date.now() > deadline) return false;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5); // a few ms: the steps are quick
  }
}

/** The lock, waited for without blocking the event loop: the holder may be this process, awaiting the network. */
async function takeLockAsync(lock: string, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const taken = tryLock(lock, Math.max(LOCK_STALE_MS, waitMs));
    if (taken !== false) return taken === true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Runs `step` holding `<path>.lock`. When the lock cannot be had in time (a folder that refuses
 * it, a run that holds it too long) the step runs anyway: it must still check what it changes.
 */
export async function withFileLock<T>(path: string, step: () => T | Promise<T>, waitMs = LOCK_WAIT_MS): Promise<T> {
  const lock = `${path}.lock`;
  const held = await takeLockAsync(lock, waitMs);
  try {
    return await step();
  } finally {
    if (held) rmdirSync(lock);
  }
}

/** {@link withFileLock} for a step that is synchronous (the history's writer). */
export function withFileLockSync<T>(path: string, step: () => T): T {
  const lock = `${path}.lock`;
  const held = takeLock(lock);
  try {
    return step();
  } finally {
    if (held) rmdirSync(lock);
  }
}
