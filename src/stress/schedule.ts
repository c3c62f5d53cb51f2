/**
 * Who sends when: `workers` loops, started one after another over `rampUpMs`, each taking a
 * turn until the run's count or time is used up; `rate` spaces the turns of all workers so that
 * no more than `rate` start in a second. Bounded by construction: every run has a count or a
 * deadline, and the signal stops it early.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface Schedule {
  workers: number;
  rampUpMs: number;
  /** Stop starting requests this long after the first (ramp-up included). */
  durationMs?: number;
  /** Stop after this many requests. */
  requests?: number;
  /** At most this many requests start per second, across workers. */
  rate?: number;
}

/** Waits, or returns false when the signal stops the run first. */
async function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  if (ms <= 0) return !signal.aborted;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** Runs `send` on the schedule (told which worker's turn it is); resolves once every worker has stopped and its last request ended. */
export async function runSchedule(schedule: Schedule, send: (worker: number) => Promise<void>, signal: AbortSignal, startedAt = performance.now()): Promise<void> {
  const deadline = schedule.durationMs !== undefined ? startedAt + schedule.durationMs : Number.POSITIVE_INFINITY;
  let taken = 0;
  /** The next turn's number, or undefined when the run is over. */
  const take = (): number | undefined => {
    if (signal.aborted || performance.now() >= deadline) return undefined;
    if (schedule.requests !== undefined && taken >= schedule.requests) return undefined;
    return taken++;
  };
  const worker = async (index: number): Promise<void> => {
    if (!(await wait(startedAt + (index * schedule.rampUpMs) / schedule.workers - performance.now(), signal))) return;
    for (let turn = take(); turn !== undefined; turn = take()) {
      if (schedule.rate !== undefined) {
        const slot = startedAt + (turn * 1000) / schedule.rate;
        if (slot >= deadline || !(await wait(slot - performance.now(), signal))) return;
      }
      await send(index);
    }
  };
  await Promise.all(Array.from({ length: schedule.workers }, (_, index) => worker(index)));
}
