/**
 * A JMESPath interpreter of reqflow's own — the library's, one per {@link JsonSearch} owner, its
 * shared one untouched — whose every search is bounded, whatever the size of the document:
 *
 * - in what it makes. An expression can repeat its input: `[@,@]|[@,@]|…` doubles it at each
 *   `|` (as shared references, so it costs nothing until something writes it out), and 40 of
 *   them over a 50-byte body made `to_string`, `[]` or the output run for hours in gigabytes,
 *   and `==` between two of them for hours. Every value a step makes (a projection, a multi-select,
 *   a flatten, a slice, a function's result) is measured as it would be written out — shared parts
 *   counted each time they appear, each measured once — and may be at most {@link FLOOR} or four
 *   times the document, and all of them together four times that.
 * - in time: `--script-timeout`, checked between steps (so no watchdog thread per search). A
 *   step's own work is then bounded by the size of its arguments, except in the library's
 *   functions that make a string of any length in one step or run long on one: those are
 *   replaced (jmespath-functions.ts).
 */
import { RunTimedOut } from './bounded-run.js';
import { boundedFunctions } from './jmespath-functions.js';
import type { JMESPath } from './jmespath-library.js';

type Interpreter = JMESPath['TreeInterpreter'];

/** What a value a search makes may measure ({@link sizeOf}) on a document smaller than a quarter of it: 1 Mi. */
const FLOOR = 1 << 20;

/** The steps between two looks at the clock: a look costs ~30 ns, a step ~10 ns. */
const STEPS_PER_LOOK = 32;

/** The nodes whose value is one the step made, not one it picked out of its input. */
const MAKING = new Set(['Projection', 'ValueProjection', 'FilterProjection', 'Flatten', 'Slice', 'MultiSelectList', 'MultiSelectHash', 'Function']);

/** A search that made more than it may ({@link Meter}). */
class SearchTooLarge extends Error {
  constructor(limit: number, what: 'one' | 'all') {
    const past = `past ${limit.toLocaleString('en')} characters and values`;
    super(what === 'one' ? `a value it makes grows ${past} (four times the body's size, 1 Mi at least)` : `the values it makes add up ${past} (four times the largest value it may make)`);
    this.name = 'SearchTooLarge';
  }
}

/**
 * The size of `value` written out: the characters of its strings and keys, one for each value; a
 * container `known` holds (a value a step made, measured then) is looked up, so a value made of
 * the same parts many times is measured in the time of what it adds. Infinity once past `stop`.
 * Recursive: callers keep values within core/json-depth.ts's limit.
 */
export function sizeOf(value: unknown, known: WeakMap<object, number> | undefined, stop = Infinity): number {
  if (typeof value === 'string') return value.length + 1;
  if (typeof value !== 'object' || value === null) return 1;
  const cached = known?.get(value);
  if (cached !== undefined) return cached;
  let size = 1;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      size += sizeOf(value[index], known, stop - size);
      if (size > stop) return Infinity;
    }
  } else {
    // for…in, not Object.entries (5× slower): a JSON value's objects have no inherited enumerable keys.
    for (const key in value) {
      size += key.length + sizeOf((value as Record<string, unknown>)[key], known, stop - size);
      if (size > stop) return Infinity;
    }
  }
  return size;
}

/** One search's account: its steps against the clock, and what its steps made against the limits. */
export class Meter {
  private steps = 0;
  private total = 0;
  private deadline = 0;
  private limitMs = 0;
  private limit = FLOOR;
  private document: unknown;
  private documentMeasured = false;
  private known = new WeakMap<object, number>();

  /** Starts a search of `document`; `documentSize` when the caller measured it whole. */
  start(document: unknown, limitMs: number, documentSize?: number): void {
    this.steps = 0;
    this.total = 0;
    this.limitMs = limitMs;
    this.deadline = performance.now() + limitMs;
    this.document = document;
    this.documentMeasured = documentSize !== undefined;
    this.limit = Math.max(FLOOR, 4 * (documentSize ?? 0));
    this.known = new WeakMap();
  }

  /** Ends the search: the document is not kept past it. */
  stop(): void {
    this.document = undefined;
  }

  /** One step; past the time limit, {@link RunTimedOut}. */
  step(): void {
    if (++this.steps % STEPS_PER_LOOK === 0 && performance.now() > this.deadline) throw new RunTimedOut(this.limitMs);
  }

  /** A value a step made: measured and counted; past the limits, {@link SearchTooLarge}. */
  made(value: unknown): void {
    let size = sizeOf(value, this.known, this.limit);
    if (size > this.limit && this.raise()) size = sizeOf(value, this.known, this.limit);
    this.total += size;
    this.check(size, this.total);
    if (typeof value === 'object' && value !== null) this.known.set(value, size);
  }

  /** Whether a step may make a value of `size` (the functions that check before they make one). */
  room(size: number): void {
    this.check(size, this.total + size);
  }

  /** Within the limits, raised to the document's if need be; else {@link SearchTooLarge}. */
  private check(size: number, total: number): void {
    if (size <= this.limit && total <= 4 * this.limit) return;
    if (this.raise()) {
      this.check(size, total);
      return;
    }
    throw size > this.limit ? new SearchTooLarge(this.limit, 'one') : new SearchTooLarge(4 * this.limit, 'all');
  }

  /** Whether the limit rose, once, to four times the document — measured only when a search needs more than {@link FLOOR}. */
  private raise(): boolean {
    if (this.documentMeasured) return false;
    this.documentMeasured = true;
    const limit = Math.max(FLOOR, 4 * sizeOf(this.document, undefined));
    if (limit === this.limit) return false;
    this.limit = limit;
    return true;
  }
}

/** A fresh interpreter of the library's whose searches `meter` bounds: its steps, what they make, its functions. */
export function meteredInterpreter(jmespath: JMESPath, meter: Meter): Interpreter {
  const interpreter = new (jmespath.TreeInterpreter.constructor as new () => Interpreter)();
  const table = interpreter.runtime._functionTable;
  const library = Object.fromEntries(Object.entries(table).map(([name, entry]) => [name, entry._func]));
  for (const [name, bounded] of Object.entries(boundedFunctions(meter, (wanted) => library[wanted] as (args: unknown[]) => unknown))) {
    const entry = table[name];
    if (entry) table[name] = { ...entry, _func: bounded as typeof entry._func };
  }
  return metered(interpreter, meter);
}

/** `interpreter` with each step metered — and each interpreter a `let` scope makes from it too. */
function metered(interpreter: Interpreter, meter: Meter): Interpreter {
  const { visit, withScope } = interpreter;
  interpreter.visit = function (this: Interpreter, node, value) {
    meter.step();
    const result = visit.call(this, node, value);
    if (MAKING.has(node.type)) meter.made(result);
    return result;
  };
  interpreter.withScope = (scope) => metered(withScope.call(interpreter, scope), meter);
  return interpreter;
}
