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

/** The longest a Node timer waits: past it Node waits 1 ms instead (and warns). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Waits, or returns false when the signal stops the run first. In steps a timer can hold: a low
 * `--rate` with many workers or no deadline (`--rate 0.0001 -c 300`, `--requests`) puts turns
 * weeks away, which one timer would have started at once.
 */
async function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  if (ms <= 0) return !signal.aborted;
  try {
    for (let left = ms; left > 0; left -= MAX_TIMER_MS) await sleep(Math.min(left, MAX_TIMER_MS), undefined, { signal });
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
