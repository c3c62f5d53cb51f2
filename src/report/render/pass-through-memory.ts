import { lazyBuiltin } from '../../core/lazy-builtin.js';

/**
 * Keeps memory flat while a large body passes through untouched (`-o raw`, non-JSON bodies).
 * Node reads the socket into a fresh buffer each time and frees it only when the garbage
 * collector finds the small object holding it. Passing bytes through makes almost no other
 * garbage, so V8 lets ~64 MiB of dead buffers pile up (its external-memory soft limit). A
 * young-generation collection every 2 MiB frees them early (well under 1 ms each): 100 MiB
 * through `-o raw` peaks well under 64 MB of RSS instead of ~87 MB. Bodies under 1 MiB never
 * pay for it.
 */
const FIRST_AT = 1024 * 1024;
const EVERY = 2 * 1024 * 1024;

type Collect = (options: { type: 'minor' }) => void;

/** Returns the function to call with each chunk of one body as it passes through. */
export function passThroughCounter(): (chunk: Buffer) => void {
  let total = 0;
  let collect: Collect | null | undefined; // made on the first large chunk of this body
  return (chunk) => {
    const before = total;
    total += chunk.length;
    if (total < FIRST_AT || Math.floor(total / EVERY) === Math.floor(before / EVERY)) return;
    if (collect === undefined) collect = youngCollector();
    collect?.({ type: 'minor' });
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
