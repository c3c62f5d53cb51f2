/**
 * Runs code a request or mock file steers — its regular expressions (`?? … matches`,
 * `expectedBodyPattern`, `regex:` captures), JSONPath filters and XPath, and JMESPath searches
 * over a large body — under a time limit, on the main thread: a pattern such as `^(a|a)*$`
 * backtracks for hours on 40 characters, and nothing else would stop it. The call is made from
 * inside a `node:vm` script run with `timeout`; V8's watchdog interrupts whatever runs then, a
 * regular expression's backtracking included. A run (or a mock server, a query box) owns one
 * {@link BoundedRunner}: its small context is made at its first check and serves the rest; no
 * worker is started and a call costs a watchdog thread, 0.05–0.5 ms.
 */
import type * as Vm from 'node:vm';
import { lazyBuiltin } from './lazy-builtin.js';

/** The time limit of a script, and of a file's pattern alike, unless `--script-timeout` says another. */
export const SCRIPT_TIMEOUT_MS = 5000;

/** What `runBounded` throws when the work passes its limit. */
export class RunTimedOut extends Error {
  constructor(
    readonly limitMs: number,
    guess = 'a pattern that backtracks without end?',
  ) {
    super(`ran past its time limit of ${limitMs} ms (${guess}); --script-timeout MS changes the limit`);
    this.name = 'RunTimedOut';
  }
}

/** Runs a file's patterns and JSONPaths under one time limit (a run's `--script-timeout`). */
export class BoundedRunner {
  /** Made at the first check: a run without one loads no `node:vm`. */
  private held: { context: Vm.Context & { work?: () => unknown }; script: Vm.Script } | undefined;

  constructor(readonly limitMs: number = SCRIPT_TIMEOUT_MS) {}

  /** `work()`, stopped after the limit with {@link RunTimedOut}; what it throws otherwise passes through. */
  run<T>(work: () => T): T {
    if (this.held === undefined) {
      const vm = lazyBuiltin<typeof Vm>('node:vm');
      this.held = { context: vm.createContext({}), script: new vm.Script('work()') };
    }
    const { context, script } = this.held;
    const outer = context.work;
    context.work = work;
    try {
      return script.runInContext(context, { timeout: this.limitMs }) as T;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new RunTimedOut(this.limitMs);
      throw error;
    } finally {
      context.work = outer;
    }
  }
}
